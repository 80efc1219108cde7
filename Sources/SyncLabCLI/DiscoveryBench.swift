import Foundation
import Harness
import SyncContract

/// `synclab bench --discovery`: the swarm explorer on every engine, measured by what it
/// finds — per weakness of the engine's catalogue, the first seed whose run it fired in and
/// the wall time until that seed was done; the share found; the weaknesses not reached.
enum DiscoveryBench {
    struct Found: Sendable {
        var result: SeedResult?
        var finishedAt: Duration
        var coverage: RunCoverage?
    }

    static func run(seeds: UInt64, jobs: Int, engines: [String], guided: Bool) -> Int32 {
        print("discovery: explore --swarm\(guided ? " --guided" : ""), seeds 1...\(seeds), "
            + "\(jobs) job\(jobs == 1 ? "" : "s")")
        var total = (found: 0, catalogued: 0)
        for engine in engines {
            guard let profile = EngineChoice.registry.profile(named: engine) else { continue }
            let weaknesses = profile.catalogue.weaknesses.map(\.id)
            let found = sweep(engine: engine, seeds: seeds, jobs: jobs, guided: guided)
            let lines = table(weaknesses: weaknesses, found: found)
            let reached = lines.filter { $0.reached }.count
            total.found += reached
            total.catalogued += weaknesses.count
            let share = weaknesses.isEmpty ? 100 : reached * 100 / weaknesses.count
            print("\(engine): \(reached) of \(weaknesses.count) weaknesses (\(share)%), "
                + "\(found.filter { $0.result?.outcome == .newFinding }.count) seeds with "
                + "a new finding, \(found.filter { $0.result == nil }.count) not run")
            for line in lines { print("  " + line.text) }
            print("  " + reach(found, catalogue: profile.catalogue.rules.map(\.id)))
        }
        print("all engines: \(total.found) of \(total.catalogued) weaknesses found")
        return 0
    }

    /// The sweep's seeds in order; guided, the pilot (as `explore --swarm --guided` draws
    /// it for this range) runs first and the rest follow the guide it gives.
    private static func sweep(engine: String, seeds: UInt64, jobs: Int, guided: Bool)
        -> [Found]
    {
        let options = ExploreOptions(engines: EngineChoice.registry, engine: engine)
        let clock = ContinuousClock()
        let start = clock.now
        let pilot = guided ? min(CoverageGuide.pilotSize(forRangeOf: seeds), seeds) : seeds
        let first = ExploreWorkers<SwarmExplorer, Found>(count: Int(pilot)).run(
            jobs: jobs, context: { SwarmExplorer(options: options) },
            work: { swarm, index in
                let run = swarm.covered(seed: UInt64(index) + 1)
                return Found(
                    result: run?.result, finishedAt: clock.now - start, coverage: run?.coverage)
            },
            progress: { _ in }
        ).compactMap { $0 }
        guard pilot < seeds else { return first }
        let guide = CoverageGuide(pilot: first.compactMap { found in
            guard let seed = found.result?.seed, let coverage = found.coverage else { return nil }
            return (seed, coverage)
        })
        let rest = ExploreWorkers<SwarmExplorer, Found>(count: Int(seeds - pilot)).run(
            jobs: jobs, context: { SwarmExplorer(options: options) },
            work: { swarm, index in
                let seed = pilot + UInt64(index) + 1
                let run = swarm.covered(seed: seed, mutation: guide.mutation(for: seed))
                return Found(
                    result: run?.result, finishedAt: clock.now - start, coverage: run?.coverage)
            },
            progress: { _ in }
        ).compactMap { $0 }
        return first + rest
    }

    /// How far the sweep reached beyond the weaknesses: the catalogue's rules fired, and the
    /// features of `RunCoverage` met, with how many were met in one run only.
    private static func reach(_ found: [Found], catalogue: [String]) -> String {
        var reachedBy: [String: Int] = [:]
        for coverage in found.compactMap(\.coverage) {
            for feature in coverage.features { reachedBy[feature, default: 0] += 1 }
        }
        let rules = catalogue.filter { reachedBy["rule:" + $0] != nil }.count
        let once = reachedBy.values.filter { $0 == 1 }.count  // tidy: ordered only counted
        return "reach: \(rules) of \(catalogue.count) catalogue rules fired; \(reachedBy.count) "
            + "coverage features, \(once) of them in one run only"
    }

    private static func table(weaknesses: [String], found: [Found])
        -> [(reached: Bool, text: String)] {
        weaknesses.map { id in
            let runs = found.filter { $0.result?.firedWeaknesses.contains(id) ?? false }
            guard let first = runs.first, let seed = first.result?.seed else {
                return (false, "\(pad(id)) not reached in \(found.count) seeds")
            }
            let seconds = Double(first.finishedAt.components.seconds)
                + Double(first.finishedAt.components.attoseconds) / 1e18
            return (true, "\(pad(id)) first at seed \(seed) after "
                + String(format: "%.1f", seconds) + " s; fired in \(runs.count) runs")
        }
    }

    private static func pad(_ id: String) -> String {
        id.padding(toLength: 12, withPad: " ", startingAt: 0)
    }
}
