import Harness

/// `explore --swarm --guided`: a pilot of the range's first seeds, a corpus of the worlds
/// that reached something new (`CoverageGuide`), then every other seed a fresh world or a
/// corpus world with part of its chance redrawn.
extension ExploreCommand {
    /// Reads `--guided`, `--pilot` and `--mutation` into the request; a problem when they do
    /// not go together.
    static func readGuidance(
        guided: Bool, pilot: String?, mutation: String?, swarm: Bool, into request: inout Request
    ) -> UsageProblem? {
        if (guided || mutation != nil) && !swarm {
            return UsageProblem(message: "'\(guided ? "--guided" : "--mutation")' needs "
                + "'--swarm' (a chaos file's sweep draws from the file alone)")
        }
        if let pilot {
            guard guided else { return UsageProblem(message: "'--pilot' needs '--guided'") }
            guard let count = Int(pilot), count >= 1 else {
                return UsageProblem(message: "'--pilot' takes a positive number, not '\(pilot)'")
            }
            request.pilot = count
        }
        if let mutation {
            guard !guided else {
                return UsageProblem(message: "'--mutation' reruns one guided seed; leave out "
                    + "'--guided'")
            }
            guard request.selection.from == request.selection.to else {
                return UsageProblem(message: "'--mutation' reruns one seed: give '--seed S'")
            }
            switch SwarmMutation.parse(mutation) {
            case .success(let read): request.mutation = read
            case .failure(let problem):
                return UsageProblem(message: "'--mutation \(mutation)': \(problem.message)")
            }
        }
        request.guided = guided
        return nil
    }

    /// The pilot's seeds: the first of the whole range (not of the shard), a fifth of it
    /// unless `--pilot` says, so every shard reads the same pilot.
    static func pilotSeeds(_ request: Request) -> [UInt64] {
        let range = request.selection
        let count = range.to - range.from + 1
        let size = request.pilot.map(UInt64.init) ?? CoverageGuide.pilotSize(forRangeOf: count)
        return Array(range.from...min(range.to, range.from + min(size, count) - 1))
    }

    /// Runs the pilot on the workers and reads it into a guide; the pilot's results of the
    /// request's own seeds come back too.
    static func runPilot(
        _ request: Request, makeSwarm: @escaping @Sendable () -> SwarmExplorer
    ) -> (guide: CoverageGuide, results: [UInt64: SeedResult]) {
        let seeds = pilotSeeds(request)
        let bar = ProgressBar(total: seeds.count, label: "pilot seeds")
        let runs = ExploreWorkers<SwarmExplorer, (SeedResult, RunCoverage)?>(count: seeds.count)
            .run(
                jobs: request.jobs, context: makeSwarm,
                work: { swarm, index in swarm.covered(seed: seeds[index]) },
                progress: bar.update)
        bar.finish()
        var pilot: [(seed: UInt64, coverage: RunCoverage)] = []
        var results: [UInt64: SeedResult] = [:]
        for case let (result, coverage)?? in runs {
            pilot.append((result.seed, coverage))
            if request.selection.contains(result.seed) { results[result.seed] = result }
        }
        let guide = CoverageGuide(pilot: pilot)
        print("guided: pilot seeds \(seeds.first ?? 0)...\(seeds.last ?? 0), "
            + "\(guide.reached.count) features reached, corpus of \(guide.corpus.count) worlds")
        return (guide, results)
    }

    /// The words a rerun line adds for a guided seed.
    static func mutationArgument(_ result: SeedResult) -> String {
        result.mutation.map { " --mutation \($0)" } ?? ""
    }
}
