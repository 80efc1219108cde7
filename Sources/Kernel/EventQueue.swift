/// A min-priority queue of events ordered by (time, sequence number).
///
/// Sequence numbers are handed out at insertion, increasing, so events due at the same time
/// come out in the order they were scheduled: the order never depends on the heap's shape.
/// The storage is an implicit 4-ary heap in one array of plain values (no boxing, no
/// existentials): a shallower tree than a binary heap, with the four children of a node next
/// to each other in memory.
///
/// Cancellation removes the event at once, after a linear search: the hot path (schedule and
/// pop) then carries no bookkeeping, and a simulation holds a few hundred pending events.
///
/// Events due no later than everything in the heap, scheduled one after another for one
/// instant (a simulation's "right now": an engine resuming after a probe point, an answer
/// that fails at once), wait in a short run beside the heap, `front`, instead of being sifted
/// up to its root and down again. The run is sorted (one time, increasing sequence numbers),
/// so the next event is the earlier of its first entry and the heap's root, and the order is
/// exactly the heap's alone.
public struct EventQueue<Payload> {
    @usableFromInline
    struct Entry {
        /// The time with its sign bit flipped, so unsigned order is time order.
        @usableFromInline let timeKey: UInt64
        @usableFromInline let sequence: UInt64
        @usableFromInline let payload: Payload

        @inlinable
        init(time: Int64, sequence: UInt64, payload: Payload) {
            timeKey = UInt64(bitPattern: time) ^ (1 << 63)
            self.sequence = sequence
            self.payload = payload
        }

        @inlinable
        var time: Int64 { Int64(bitPattern: timeKey ^ (1 << 63)) }

        /// Whether this entry comes first by (time, sequence).
        ///
        /// Written as one 128-bit subtraction (compare, then subtract with borrow) rather than
        /// `a.time < b.time || (a.time == b.time && …)`: the heap's comparisons are
        /// unpredictable, so a comparison without branches saves the mispredictions.
        @inlinable @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            let lowBorrow: UInt64 = sequence < other.sequence ? 1 : 0
            let (difference, highBorrow) = timeKey.subtractingReportingOverflow(other.timeKey)
            let (_, carryBorrow) = difference.subtractingReportingOverflow(lowBorrow)
            return (UInt8(highBorrow ? 1 : 0) | UInt8(carryBorrow ? 1 : 0)) != 0
        }

        @inlinable
        var event: ScheduledEvent<Payload> {
            ScheduledEvent(
                time: SimTime(microseconds: time), id: EventID(sequence: sequence),
                payload: payload
            )
        }
    }

    @usableFromInline var heap: [Entry] = []
    /// Events due at one time, in sequence order, none later than the heap's root when the
    /// first came (see the type's comment); at most `frontLimit`.
    @usableFromInline var front: [Entry] = []
    @usableFromInline var nextSequence: UInt64 = 0

    /// More events than this for one instant go to the heap: taking the first of several
    /// out of `front` moves the others, so it stays short.
    @usableFromInline static var frontLimit: Int { 16 }

    @inlinable
    public init() {}

    /// The number of events waiting.
    @inlinable
    public var count: Int { heap.count + front.count }

    @inlinable
    public var isEmpty: Bool { heap.isEmpty && front.isEmpty }

    /// The time of the next event, or nil when none is waiting.
    @inlinable
    public var nextTime: SimTime? {
        if front.isEmpty { return heap.isEmpty ? nil : SimTime(microseconds: heap[0].time) }
        let time = front[0].time
        return SimTime(microseconds: heap.isEmpty ? time : min(time, heap[0].time))
    }

    /// The next event without removing it, or nil when none is waiting.
    @inlinable
    public var peek: ScheduledEvent<Payload>? {
        if frontComesFirst { return front[0].event }
        return heap.isEmpty ? nil : heap[0].event
    }

    /// Whether the next event is the first of `front` (false when `front` is empty).
    @inlinable
    var frontComesFirst: Bool {
        !front.isEmpty && (heap.isEmpty || front[0].precedes(heap[0]))
    }

    /// Adds an event due at `time` and returns its id (the next sequence number).
    ///
    /// The payload is taken (`consuming`), not borrowed: borrowed, it was copied into the
    /// queue (retaining a boxed payload) and the caller's own copy destroyed after the call.
    @inlinable @inline(__always)
    @discardableResult
    public mutating func schedule(at time: SimTime, _ payload: consuming Payload) -> EventID {
        let sequence = nextSequence
        nextSequence += 1
        let entry = Entry(time: time.microseconds, sequence: sequence, payload: consume payload)
        // Its sequence number is the largest yet: after every entry of `front` due at its time.
        // (Each append consumes the entry: left to the optimizer, it was copied in, retain and
        // all, and then destroyed.)
        if !front.isEmpty {
            if front[0].timeKey == entry.timeKey && front.count < Self.frontLimit {
                front.append(consume entry)
                return EventID(sequence: sequence)
            }
        } else if heap.isEmpty || entry.precedes(heap[0]) {
            front.append(consume entry)
            return EventID(sequence: sequence)
        }
        heap.append(consume entry)
        siftUp(from: heap.count - 1)
        return EventID(sequence: sequence)
    }

    /// Uses up the sequence number the next event would get, as an event scheduled and taken
    /// at once would (`Kernel.takeInLine(actor:)`): every later event keeps its identity.
    @inlinable
    public mutating func skipSequence() {
        nextSequence += 1
    }

    /// Removes and returns the earliest event (by time, then sequence), or nil when empty.
    @inlinable
    public mutating func popNext() -> ScheduledEvent<Payload>? {
        if frontComesFirst {
            // Usually the only one: taken from the end, nothing moves.
            return (front.count == 1 ? front.removeLast() : front.removeFirst()).event
        }
        guard var taken = heap.popLast() else { return nil }
        if heap.isEmpty { return taken.event }
        // Swapped, not copied out and overwritten: no retain and release of the payload.
        swap(&taken, &heap[0])
        siftDown(from: 0)
        return taken.event
    }

    /// `popNext()` for a caller that reads only the payload: it is moved out of the entry,
    /// with no event built around it.
    @inlinable @inline(__always)
    public mutating func popNextPayload() -> Payload? {
        if frontComesFirst {
            return (front.count == 1 ? front.removeLast() : front.removeFirst()).payload
        }
        guard var taken = heap.popLast() else { return nil }
        if heap.isEmpty { return taken.payload }
        swap(&taken, &heap[0])
        siftDown(from: 0)
        return taken.payload
    }

    /// Removes the event `id` if it is still waiting; returns whether it was.
    ///
    /// Cancelling an event that already ran or was cancelled is allowed and does nothing, so
    /// a caller can cancel a timer without tracking whether it fired.
    @inlinable
    @discardableResult
    public mutating func cancel(_ id: EventID) -> Bool {
        if let position = front.firstIndex(where: { $0.sequence == id.sequence }) {
            front.remove(at: position)
            return true
        }
        guard let index = heap.firstIndex(where: { $0.sequence == id.sequence }) else {
            return false
        }
        let last = heap.removeLast()
        if index == heap.count { return true }
        heap[index] = last
        if index > 0 && last.precedes(heap[(index - 1) / 4]) {
            siftUp(from: index)
        } else {
            siftDown(from: index)
        }
        return true
    }

    /// Every waiting event in (time, sequence) order, for the account of leftovers.
    public func pending() -> [ScheduledEvent<Payload>] {
        (heap + front).sorted { $0.precedes($1) }.map(\.event)
    }

    // The sifts move entries, they do not copy them: the entry at `start` is moved out,
    // leaving a hole that travels along the path (each entry passed over is moved into it)
    // until the moved-out entry is put into its final place. Copies retained and released
    // each payload they passed over (the world's events hold boxed requests and answers).
    // The hole never outlives the closure, and nothing between moving out and putting back
    // can fail: `precedes` only compares integers.

    @inlinable
    mutating func siftUp(from start: Int) {
        heap.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var index = start
            let moving = (base + index).move()
            while index > 0 {
                let parent = (index - 1) / 4
                guard moving.precedes(base[parent]) else { break }
                (base + index).moveInitialize(from: base + parent, count: 1)
                index = parent
            }
            (base + index).initialize(to: consume moving)
        }
    }

    @inlinable
    mutating func siftDown(from start: Int) {
        heap.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var index = start
            let moving = (base + index).move()
            // Floyd's bottom-up variant: move the hole to a leaf along the smallest children,
            // then sift the moving entry up from there; it usually belongs near the bottom.
            while true {
                let firstChild = 4 * index + 1
                var best: Int
                if firstChild + 3 < count {
                    let left = base[firstChild + 1].precedes(base[firstChild])
                        ? firstChild + 1 : firstChild
                    let right = base[firstChild + 3].precedes(base[firstChild + 2])
                        ? firstChild + 3 : firstChild + 2
                    best = base[right].precedes(base[left]) ? right : left
                } else {
                    if firstChild >= count { break }
                    best = firstChild
                    var child = firstChild + 1
                    while child < count {
                        if base[child].precedes(base[best]) { best = child }
                        child += 1
                    }
                }
                (base + index).moveInitialize(from: base + best, count: 1)
                index = best
            }
            while index > start {
                let parent = (index - 1) / 4
                guard moving.precedes(base[parent]) else { break }
                (base + index).moveInitialize(from: base + parent, count: 1)
                index = parent
            }
            (base + index).initialize(to: consume moving)
        }
    }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue.Entry: Sendable where Payload: Sendable {}
