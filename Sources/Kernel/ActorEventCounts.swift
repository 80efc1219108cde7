/// The events each actor of a kernel handled, by actor index (`Kernel.busiestActor()`).
///
/// The first eight actors (a world's devices and its cloud) are counted in place, in a tuple:
/// an array's count changed at every event checked the array's uniqueness each time. The
/// others are counted in a list. A value, as the kernel is.
@usableFromInline
struct ActorEventCounts: Sendable {
    @usableFromInline static let inlineCount = 8
    @usableFromInline var first: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var later: [Int] = []
    @usableFromInline private(set) var count = 0

    @usableFromInline
    init() {}

    /// Adds an actor, with no events yet.
    @usableFromInline
    mutating func addActor() {
        if count >= Self.inlineCount { later.append(0) }
        count += 1
    }

    /// Counts one more event for the actor.
    @inlinable @inline(__always)
    mutating func increment(_ actor: Int) {
        precondition(actor >= 0 && actor < count, "unknown actor handle")
        if actor < Self.inlineCount {
            withUnsafeMutableBytes(of: &first) { bytes in
                let offset = actor * MemoryLayout<Int>.stride
                let events = bytes.load(fromByteOffset: offset, as: Int.self)
                bytes.storeBytes(of: events + 1, toByteOffset: offset, as: Int.self)
            }
        } else {
            later[actor - Self.inlineCount] += 1
        }
    }

    /// The events the actor handled.
    @usableFromInline
    subscript(actor: Int) -> Int {
        precondition(actor >= 0 && actor < count, "unknown actor handle")
        guard actor < Self.inlineCount else { return later[actor - Self.inlineCount] }
        return withUnsafeBytes(of: first) {
            $0.load(fromByteOffset: actor * MemoryLayout<Int>.stride, as: Int.self)
        }
    }
}
