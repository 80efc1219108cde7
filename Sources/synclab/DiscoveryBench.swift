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
    }

    static func run(seeds: UInt64, jobs: Int, engines: [String]) -> Int32 {
        print("discovery: explore --swarm, seeds 1...\(seeds), \(jobs) job\(jobs == 1 ? "" : "s")")
        var total = (found: 0, catalogued: 0)
        for engine in engines {
            guard let profile = EngineChoice.registry.profile(named: engine) else { continue }
            let weaknesses = profile.catalogue.weaknesses.map(\.id)
            let found = sweep(engine: engine, seeds: seeds, jobs: jobs)
            let lines = table(weaknesses: weaknesses, found: found)
            let reached = lines.filter { $0.reached }.count
            total.found += reached
            total.catalogued += weaknesses.count
            let share = weaknesses.isEmpty ? 100 : reached * 100 / weaknesses.count
            print("\(engine): \(reached) of \(weaknesses.count) weaknesses (\(share)%), "
                + "\(found.filter { $0.result?.outcome == .newFinding }.count) seeds with "
                + "a new finding, \(found.filter { $0.result == nil }.count) not run")
            for line in lines { print("  " + line.text) }
        }
        print("all engines: \(total.found) of \(total.catalogued) weaknesses found")
        return 0
    }

    private static func sweep(engine: String, seeds: UInt64, jobs: Int) -> [Found] {
        let options = ExploreOptions(engines: EngineChoice.registry, engine: engine)
        let clock = ContinuousClock()
        let start = clock.now
        return ExploreWorkers<SwarmExplorer, Found>(count: Int(seeds)).run(
            jobs: jobs, context: { SwarmExplorer(options: options) },
            work: { swarm, index in
                let result = swarm.run(seed: UInt64(index) + 1)
                return Found(result: result, finishedAt: clock.now - start)
            },
            progress: { _ in }
        ).compactMap { $0 }
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
