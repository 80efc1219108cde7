/// Names one scheduled event by its insertion number, unique within its queue.
///
/// Sequence numbers increase with every insertion, so they also break ties between events due
/// at the same time: the earlier insertion runs first.
public struct EventID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let sequence: UInt64

    @inlinable
    public init(sequence: UInt64) {
        self.sequence = sequence
    }

    @inlinable
    public static func < (lhs: EventID, rhs: EventID) -> Bool {
        lhs.sequence < rhs.sequence
    }

    public var description: String { "#\(sequence)" }
}

/// An event taken from (or still waiting in) an `EventQueue`: when, which one, and what.
public struct ScheduledEvent<Payload> {
    public let time: SimTime
    public let id: EventID
    public let payload: Payload

    @inlinable
    public init(time: SimTime, id: EventID, payload: Payload) {
        self.time = time
        self.id = id
        self.payload = payload
    }
}

extension ScheduledEvent: Sendable where Payload: Sendable {}
extension ScheduledEvent: Equatable where Payload: Equatable {}
