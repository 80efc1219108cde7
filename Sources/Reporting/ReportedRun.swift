import Harness
import Kernel

/// What a report needs of one run: the trace and the outcome, without the live world.
///
/// `RunResult` has no public initializer; this plain copy lets tests and tools build reports
/// of runs they write by hand (a trace with 500 retries) as easily as of real runs.
public struct ReportedRun: Sendable, Equatable {
    public var seed: UInt64
    /// Every recorded event, in trace order.
    public var events: [TraceEvent]
    public var expectations: [ExpectationResult]
    public var failure: RuntimeFailure?
    /// Pending changes, missed pushes and unfired triggers left at the end.
    public var leftovers: [String]
    public var endTime: SimTime
    /// The world after each event, for the HTML report's step-through; nil when not taken.
    public var steps: StepSnapshots?

    public init(
        seed: UInt64,
        events: [TraceEvent],
        expectations: [ExpectationResult],
        failure: RuntimeFailure? = nil,
        leftovers: [String] = [],
        endTime: SimTime,
        steps: StepSnapshots? = nil
    ) {
        self.seed = seed
        self.events = events
        self.expectations = expectations
        self.failure = failure
        self.leftovers = leftovers
        self.endTime = endTime
        self.steps = steps
    }

    /// The report's view of a harness run.
    public init(_ result: RunResult) {
        self.init(
            seed: result.seed,
            events: result.trace.events,
            expectations: result.expectations,
            failure: result.failure,
            leftovers: result.leftovers,
            endTime: result.endTime,
            steps: result.steps
        )
    }

    /// Every expectation held and nothing failed at runtime (the same rule as `RunResult`).
    public var passed: Bool { failure == nil && expectations.allSatisfy(\.passed) }

    /// How many expectations held.
    public var heldCount: Int { expectations.filter(\.passed).count }
}
