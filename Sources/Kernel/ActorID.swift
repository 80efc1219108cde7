/// A kernel's short handle for an actor name, so the hot path counts by index, not by hash.
///
/// Handles are given out in order of first use by one kernel and mean nothing to another.
public struct ActorID: Hashable, Comparable, Sendable {
    public let index: UInt32

    @inlinable
    public init(index: UInt32) {
        self.index = index
    }

    @inlinable
    public static func < (lhs: ActorID, rhs: ActorID) -> Bool {
        lhs.index < rhs.index
    }
}

/// How many events one actor handled, for budget failures and run summaries.
public struct ActorEventCount: Sendable, Hashable {
    public let actor: String
    public let events: Int

    public init(actor: String, events: Int) {
        self.actor = actor
        self.events = events
    }
}
