/// What one call of `Kernel.next(until:)` did.
public enum Step<Payload> {
    /// The next event, now due: `now` moved to its time and it counts as processed.
    case event(ScheduledEvent<Payload>, actor: String)
    /// No event is due at or before the limit; `now` moved to the limit.
    case reachedLimit
    /// No event is waiting at all; `now` moved to the limit if one was given.
    case empty
    /// The next step would break the budget; nothing changed, and every later call says so too.
    case budgetExceeded(BudgetFailure)
}

extension Step: Sendable where Payload: Sendable {}
extension Step: Equatable where Payload: Equatable {}

/// An event still waiting when a run ends, with its actor, for the account of leftovers.
public struct PendingEvent<Payload> {
    public let time: SimTime
    public let id: EventID
    public let actor: String
    public let payload: Payload

    public init(time: SimTime, id: EventID, actor: String, payload: Payload) {
        self.time = time
        self.id = id
        self.actor = actor
        self.payload = payload
    }
}

extension PendingEvent: Sendable where Payload: Sendable {}
extension PendingEvent: Equatable where Payload: Equatable {}
