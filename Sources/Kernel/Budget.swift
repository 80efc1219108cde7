/// The bounds of one run: how far simulated time may go and how many events may run.
///
/// Every run has both, so a livelock (two devices retrying each other forever) ends as a
/// clear failure naming the busiest actor instead of a hang.
public struct Budget: Sendable, Hashable {
    public var maxTime: SimTime
    public var maxEvents: Int

    public init(maxTime: SimTime, maxEvents: Int) {
        precondition(maxTime >= .zero, "a budget's time must not be negative")
        precondition(maxEvents >= 0, "a budget's event count must not be negative")
        self.maxTime = maxTime
        self.maxEvents = maxEvents
    }

    /// A budget that no realistic run reaches, for tests and benchmarks.
    public static let unlimited = Budget(maxTime: .max, maxEvents: .max)
}

/// Why a run stopped early: which bound it hit, and the actor that kept the kernel busiest.
public struct BudgetFailure: Sendable, Hashable, Error, CustomStringConvertible {
    /// The bound that was hit.
    public enum Reason: Sendable, Hashable {
        /// The next step would move simulated time past `Budget.maxTime`.
        case time
        /// The next event would exceed `Budget.maxEvents`.
        case events
    }

    public let reason: Reason
    /// The bound that was hit: microseconds for `.time`, a number of events for `.events`.
    public let limit: Int64
    /// The actor that handled the most events (ties go to the name that sorts first by UTF-8
    /// bytes); empty when no event ran.
    public let busiestActor: String
    /// The number of events `busiestActor` handled.
    public let busiestActorEvents: Int
    /// Simulated time when the run stopped.
    public let time: SimTime
    /// Events handled before the run stopped.
    public let eventsProcessed: Int

    public init(
        reason: Reason, limit: Int64, busiestActor: String, busiestActorEvents: Int,
        time: SimTime, eventsProcessed: Int
    ) {
        self.reason = reason
        self.limit = limit
        self.busiestActor = busiestActor
        self.busiestActorEvents = busiestActorEvents
        self.time = time
        self.eventsProcessed = eventsProcessed
    }

    /// For example `budget exceeded: the run's event budget of 100000 events was used up
    /// (busiest actor 'phone', 91234 events); raise it with 'budget events N' in the scenario
    /// or '--max-events N'`: which bound, how the run stood, and how to raise it.
    public var description: String {
        let bound: String
        let raise: String
        switch reason {
        case .events:
            bound = "the run's event budget of \(limit) events was used up"
            raise = "raise it with 'budget events N' in the scenario or '--max-events N'"
        case .time:
            bound = "the run would pass its time budget of \(SimTime(microseconds: limit)) "
                + "of simulated time"
            raise = "raise it with 'budget time D' in the scenario or '--max-time D'"
        }
        if busiestActor.isEmpty && busiestActorEvents == 0 {
            return "budget exceeded: \(bound) (no event ran); \(raise)"
        }
        return "budget exceeded: \(bound) "
            + "(busiest actor '\(busiestActor)', \(busiestActorEvents) events); \(raise)"
    }
}
