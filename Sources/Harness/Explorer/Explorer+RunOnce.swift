import Kernel
import Scenario

extension Explorer {
    /// `synclab run` on a chaos file: the seed's draw, run once, its checks reported as
    /// expectations on the first chaos line (one per check; an explained violation passes
    /// and says which of the engine's weaknesses explains it), runtime failures as
    /// runtime failures.
    public static func runOnce(
        _ scenario: ScenarioFile, source: String, options: RunOptions
    ) -> RunResult {
        let seed = options.seed ?? scenario.header.effectiveSeed
        let exploreOptions = ExploreOptions(
            engines: options.engines, engine: options.engine,
            recordTrace: options.recordTrace, maxEvents: options.maxEvents,
            maxTime: options.maxTime)
        let explorer = Explorer(scenario: scenario, source: source, options: exploreOptions)
        let run = explorer.drawnRun(seed: seed, options: exploreOptions)
        let violations = run.check()
        let line = scenario.chaos.location?.line ?? 1
        var expectations = run.results
        let checks: [InvariantCheck] = [
            .convergence, .lostChange, .duplicateIdentity, .resurrection, .liveness,
        ]
        for check in checks {
            let found = violations.filter { $0.check == check }
            let unexplained = found.first { !$0.isExplained }
            var text = ""
            if let unexplained {
                text = unexplained.message
            } else if let explained = found.first {
                text = explained.message + " (explained by "
                    + explained.explainedBy.joined(separator: ", ") + ")"
            }
            expectations.append(ExpectationResult(
                line: line, wanted: "chaos check \(check.rawValue)", found: text,
                passed: unexplained == nil))
        }
        let world = run.world
        let leftovers = world.leftovers()
        world.record("script", "run.end", [
            TraceField("leftovers", .list(leftovers.lines.map { .string($0) })),
        ])
        return RunResult(
            file: scenario.file, seed: seed, engine: world.profile.name, trace: world.trace,
            expectations: expectations, failure: world.failure, leftoverAccount: leftovers,
            firedRules: run.firedRules,
            endTime: world.now, finalState: world.finalState())
    }
}
