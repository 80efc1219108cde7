import Kernel
import Scenario

/// Runs a chaos file (docs/EXPLORER.md): for each seed, one drawn run — the file's ordinary
/// timeline, a fault phase of random operations and faults, a heal phase — then the
/// checkers; and shrinks what a seed found to a plain scenario.
///
/// Single-threaded and deterministic: the same file, seed and options give the same result
/// in any process. Independent seeds may run on separate threads, each with its own
/// `Explorer` (the CLI makes one per worker).
public struct Explorer: Sendable {
    let plan: ChaosPlan
    let source: String
    public let options: ExploreOptions
    /// Set for a guided seed that reruns a corpus world (`SwarmExplorer`).
    var mutation: SwarmMutation?

    /// A checked scenario with a `chaos workload` line, and its source text.
    public init(
        scenario: ScenarioFile, source: String, options: ExploreOptions
    ) {
        precondition(scenario.chaos.workload != nil, "explore needs a 'chaos workload' line")
        plan = ChaosPlan(scenario: scenario, source: source)
        self.source = source
        self.options = options
    }

    /// The file's name, as its diagnostics give it.
    public var file: String { plan.scenario.file }

    /// A digest of the source text, so shard results of different files never merge.
    public var sourceDigest: String {
        String(RandomStreams.fnv1a64(source), radix: 16)
    }

    /// Runs one seed's draw and checks it.
    public func run(seed: UInt64) -> SeedResult {
        checked(drawnRun(seed: seed, options: options), seed: seed).result
    }

    /// Runs one seed's draw and checks it, with what the run reached (only here: a plain
    /// sweep does not pay for reading it).
    public func covered(seed: UInt64) -> (result: SeedResult, coverage: RunCoverage) {
        let run = drawnRun(seed: seed, options: options, readingCoverage: true)
        let (result, violations) = checked(run, seed: seed)
        return (result, RunCoverage(run: run, violations: violations))
    }

    /// The checks of a run that ended, as the seed's result.
    private func checked(_ run: ChaosRun, seed: UInt64)
        -> (result: SeedResult, violations: [InvariantViolation])
    {
        let violations = run.check()
        var result = SeedResult(seed: seed, run: run, violations: violations)
        result.mutation = mutation
        return (result, violations)
    }

    /// The seed of a run's world streams (latency, pushes, names): the one a shrunk
    /// scenario fixes.
    func worldSeed(of seed: UInt64) -> UInt64 {
        mutation?.streamSeed(.world, of: seed) ?? seed
    }

    /// Runs one seed's draw to the end of its heal phase (checks not yet made).
    func drawnRun(seed: UInt64, options: ExploreOptions, readingCoverage: Bool = false)
        -> ChaosRun
    {
        let run = ChaosRun(plan: plan, seed: worldSeed(of: seed), options: options)
        run.readsCoverage = readingCoverage
        run.runPlain()
        if run.world.failure == nil {
            var draw = ChaosDraw(
                seed: seed, mutation: mutation, probePoints: run.world.profile.probePointNames)
            draw.run(run)
        }
        run.heal()
        return run
    }

    /// Replays a list of fault-phase steps instead of drawing them.
    func replayedRun(seed: UInt64, plan: ChaosPlan, steps: [ChaosStep]) -> ChaosRun {
        let run = ChaosRun(plan: plan, seed: worldSeed(of: seed), options: options)
        run.runPlain()
        for step in steps where run.world.failure == nil {
            run.execute(step)
        }
        run.heal()
        return run
    }

    /// Runs a seed twice with full traces: the first run's result, and where the two traces
    /// first differ (nil when they are identical, as they must be).
    public func runTwice(seed: UInt64) -> (SeedResult, TraceDivergence?) {
        var recording = options
        recording.recordTrace = true
        let first = drawnRun(seed: seed, options: recording)
        let result = SeedResult(seed: seed, run: first, violations: first.check())
        let second = drawnRun(seed: seed, options: recording)
        return (result, TraceDivergence(first.world.trace, second.world.trace))
    }

    /// The full trace of one seed's run (checks included in the result, not the trace).
    public func trace(seed: UInt64) -> Trace {
        var recording = options
        recording.recordTrace = true
        return drawnRun(seed: seed, options: recording).world.trace
    }

    /// Shrinks the finding of a seed to a minimal plain scenario; nil when the seed found
    /// nothing worth shrinking (clean, or explained without `shrinkExplained`).
    public func shrink(_ result: SeedResult) -> ShrunkScenario? {
        guard let check = result.primaryCheck, check != .runtime else { return nil }
        let unexplained = result.outcome != .explained
        guard unexplained || options.shrinkExplained else { return nil }
        var shrinker = Shrinker(explorer: self, seed: result.seed, check: check,
            unexplained: unexplained)
        return shrinker.shrink()
    }
}

/// Where two traces of the same seed first differ.
public struct TraceDivergence: Hashable, Sendable, CustomStringConvertible {
    /// The 0-based index of the first differing event.
    public var index: Int
    public var first: String
    public var second: String

    /// Nil when the traces are identical.
    init?(_ first: Trace, _ second: Trace) {
        let count = max(first.events.count, second.events.count)
        for index in 0..<count {
            let left = index < first.events.count ? first.events[index].jsonLine : "(end)"
            let right = index < second.events.count ? second.events[index].jsonLine : "(end)"
            if left != right {
                self.index = index
                self.first = left
                self.second = right
                return
            }
        }
        return nil
    }

    public var description: String {
        "event \(index + 1) differs:\n  first:  \(first)\n  second: \(second)"
    }
}
