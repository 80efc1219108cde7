import Harness
import Kernel

extension ExploreCommand {
    /// `explore --swarm`: every seed runs its own drawn world on the `--engine`.
    static func exploreSwarm(_ request: Request) -> Int32 {
        let seeds = request.selection.seeds
        let options = request.options
        let engine = request.budget.engine ?? ""
        var loaded: String?
        if !request.path.isEmpty {
            guard let (_, source) = ScenarioFiles.load(
                request.path, options: request.budget.validationOptions)
            else { return 2 }
            loaded = source
        }
        let base = loaded
        let runs = seeds.count == 1 ? "1 run" : "\(seeds.count) runs"
        let file = request.path.isEmpty ? "" : " " + request.path
        print("\(ProgramName.current) explore --swarm\(file) --engine \(engine): "
            + "\(request.selection) (\(runs)), "
            + "\(request.jobs) job\(request.jobs == 1 ? "" : "s")"
            + (request.doublecheck ? ", doublecheck" : "") + (request.guided ? ", guided" : ""))
        let makeSwarm: @Sendable () -> SwarmExplorer = {
            SwarmExplorer(options: options, base: base)
        }
        let (mutation, known) = guidance(request, makeSwarm: makeSwarm)
        let outcomes = runSwarmSeeds(
            request, makeSwarm: makeSwarm, mutation: mutation, known: known)
        var results: [SeedResult] = []
        var unrunnable = 0
        for outcome in outcomes {
            switch outcome {
            case .result(let result)??:
                results.append(result)
            case .diverged(let seed, let divergence)??:
                print("seed \(seed): the two runs diverged at \(divergence)")
                print("  rerun: \(ProgramName.current) explore --swarm\(file) --seed \(seed) "
                    + "--doublecheck"
                    + request.budget.arguments
                    + (mutation(seed).map { " --mutation \($0)" } ?? ""))
                return 1
            case .some(nil):
                unrunnable += 1
            case nil:
                break
            }
        }
        if unrunnable > 0 {
            print("\(unrunnable) seed\(unrunnable == 1 ? "" : "s") drew a world the engine "
                + "accepts nothing of (not run)")
        }
        let shrunk = shrinkFindings(results, request: request, context: makeSwarm) {
            swarm, result in swarm.shrink(result)
        }
        for index in results.indices {
            results[index].shrunk = shrunk[results[index].seed]?.report
        }
        // Guided shards merge only with shards of the same pilot.
        let guidance = request.guided ? "-guided-\(pilotSeeds(request).count)" : ""
        let digest = "swarm-" + engine
            + (base.map { "-" + String(RandomStreams.fnv1a64($0), radix: 16) } ?? "") + guidance
        let summary = ExploreSummary(
            file: "--swarm" + file, digest: digest, selection: request.selection,
            results: results)
        var shown = request
        shown.path = "--swarm" + file
        report(results, summary: summary, request: shown)
        guard write(results, summary: summary, shrunk: shrunk, request: request) else { return 2 }
        return summary.hasFindings ? 1 : 0
    }

    /// What each seed runs (its own world, `--mutation`'s, or the guide's choice) and the
    /// results a guided sweep's pilot already has.
    private static func guidance(
        _ request: Request, makeSwarm: @escaping @Sendable () -> SwarmExplorer
    ) -> (mutation: @Sendable (UInt64) -> SwarmMutation?, known: [UInt64: SeedResult]) {
        let given = request.mutation
        guard request.guided else { return ({ _ in given }, [:]) }
        let (guide, pilot) = runPilot(request, makeSwarm: makeSwarm)
        let pilotEnd = pilotSeeds(request).last ?? 0
        // A doublecheck runs the pilot's own seeds again, twice each.
        return ({ seed in seed <= pilotEnd ? nil : guide.mutation(for: seed) },
            request.doublecheck ? [:] : pilot)
    }

    /// Runs every seed's drawn world on the workers: per seed its outcome, `.some(nil)` when
    /// the engine accepts nothing of the world, nil when a divergence stopped the run first.
    private static func runSwarmSeeds(
        _ request: Request, makeSwarm: @escaping @Sendable () -> SwarmExplorer,
        mutation: @escaping @Sendable (UInt64) -> SwarmMutation?, known: [UInt64: SeedResult]
    ) -> [SeedOutcome??] {
        let seeds = request.selection.seeds
        let doublecheck = request.doublecheck
        let bar = ProgressBar(total: seeds.count, label: "seeds")
        let outcomes = ExploreWorkers<SwarmExplorer, SeedOutcome?>(count: seeds.count).run(
            jobs: request.jobs, context: makeSwarm,
            work: { swarm, index in
                let seed = seeds[index]
                if let result = known[seed] { return .result(result) }
                guard let explorer = swarm.world(seed: seed, mutation: mutation(seed))?.explorer
                else { return nil }
                guard doublecheck else { return .result(explorer.run(seed: seed)) }
                let (result, divergence) = explorer.runTwice(seed: seed)
                return divergence.map { .diverged(seed, $0) } ?? .result(result)
            },
            stop: { outcome in
                if case .diverged? = outcome { return true }
                return false
            },
            progress: bar.update)
        bar.finish()
        return outcomes
    }
}
