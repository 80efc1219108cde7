/// How one seed's run ended, from best to worst.
public enum RunOutcome: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every invariant held.
    case clean
    /// Something broke, and a known weakness of the engine (sds: LIM-*) that fired accounts
    /// for all of it.
    case explained
    /// A violation no fired weakness explains.
    case newFinding = "new-finding"
    /// The run did not settle within its budget (liveness), or hit its bounds.
    case budgetFailure = "budget-failure"
}

/// What one seed's run found.
public struct SeedResult: Hashable, Sendable, Codable {
    public var seed: UInt64
    public var outcome: RunOutcome
    /// Steps of the fault phase (operations, faults and their liftings).
    public var steps: Int
    /// The engine's weaknesses (sds: LIM-*) that fired, sorted (observed races, violations or
    /// not).
    public var firedWeaknesses: [String]
    /// The weaknesses that explained at least one violation, sorted.
    public var explainedBy: [String]
    public var violations: [InvariantViolation]
    /// Trace events of the run (counted even when not kept).
    public var events: Int
    public var simulatedMicroseconds: Int64
    /// Set once the finding was shrunk.
    public var shrunk: ShrinkReport?
    /// For a guided seed that reran a corpus world: which, and what it kept of it.
    public var mutation: SwarmMutation?

    init(seed: UInt64, run: ChaosRun, violations: [InvariantViolation]) {
        self.seed = seed
        self.violations = violations
        steps = run.steps.count
        firedWeaknesses = Self.weaknesses(
            among: run.firedRules, of: run.world.profile.catalogue.weaknesses.map(\.id))
        // The violations of one check share one list of explainers (`ChaosRun.check`): each
        // list is read once, not once per violation.
        var lists: [[String]] = []
        for violation in violations where !lists.contains(violation.explainedBy) {
            lists.append(violation.explainedBy)
        }
        explainedBy = Array(Set(lists.joined())).sorted()
        events = run.world.trace.count
        simulatedMicroseconds = run.world.now.microseconds
        outcome = Self.outcome(of: violations)
    }

    /// The rules of `fired` (sorted, each once) that are weaknesses, in their order: both
    /// lists walked side by side, where a set of the weaknesses hashed every one of them.
    static func weaknesses(among fired: [String], of weaknesses: [String]) -> [String] {
        let sorted = weaknesses.sorted()
        var found: [String] = []
        var next = 0
        for rule in fired {
            while next < sorted.count, sorted[next] < rule { next += 1 }
            if next < sorted.count, sorted[next] == rule { found.append(rule) }
        }
        return found
    }

    static func outcome(of violations: [InvariantViolation]) -> RunOutcome {
        if violations.contains(where: { $0.check == .liveness }) { return .budgetFailure }
        if violations.contains(where: { !$0.isExplained }) { return .newFinding }
        return violations.isEmpty ? .clean : .explained
    }

    /// The check a shrunk scenario keeps failing: the first unexplained violation's, else
    /// the first violation's.
    public var primaryCheck: InvariantCheck? {
        (violations.first { !$0.isExplained } ?? violations.first)?.check
    }
}

/// What shrinking one finding gave.
public struct ShrinkReport: Hashable, Sendable, Codable {
    /// The file name the shrunk scenario is written under, e.g. `seed-17-lost-change.scenario`.
    public var file: String
    /// The check the shrunk scenario violates.
    public var check: InvariantCheck
    public var stepsBefore: Int
    public var stepsAfter: Int
    /// Devices the shrinker removed.
    public var removedDevices: [String]
    /// Runs the shrinking made (bounded by `ExploreOptions.shrinkRuns`).
    public var runs: Int
    /// Whether the written scenario, run as a plain scenario, fails as it should.
    public var reproduces: Bool
}

/// A shrunk finding: its report and the scenario text.
public struct ShrunkScenario: Hashable, Sendable {
    public var report: ShrinkReport
    public var text: String
}
