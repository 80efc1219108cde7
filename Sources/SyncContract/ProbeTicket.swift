/// What an engine hands the world with a probe point and gets back with its `.resume`: which
/// of its paused synchronizations goes on.
///
/// An engine that runs one synchronization at a time uses `sole`. One that runs several at
/// once on a device (naive's operations, NAIVE-5) numbers them; the trace's `probe` then
/// names the number (`sync`).
public struct ProbeTicket: Hashable, Sendable {
    /// The number, or `Int.min` for `sole`: one word, so a scheduled resume stays small.
    @usableFromInline let raw: Int

    /// A ticket for the synchronization numbered `synchronization` (any number but `Int.min`).
    public init(synchronization: Int) {
        precondition(synchronization != Int.min, "a synchronization's number is not Int.min")
        raw = synchronization
    }

    @usableFromInline
    init(raw: Int) {
        self.raw = raw
    }

    /// The ticket of an engine that runs one synchronization at a time. Computed, not stored:
    /// a stored one is a lazy global, so no effect naming it could be a compile-time constant.
    @inlinable public static var sole: ProbeTicket { ProbeTicket(raw: Int.min) }

    /// The synchronization the probe point belongs to, when the engine runs several at once.
    public var synchronization: Int? { raw == Int.min ? nil : raw }
}
