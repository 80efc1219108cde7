import Foundation
import Harness
import Kernel
import Scenario

/// `synclab bench`: the workloads of docs/BENCH.md, as medians over several runs.
///
/// The only place SyncLab reads a wall clock, to time itself; nothing it measures depends on
/// it.
enum BenchCommand {
    static let help = """
    USAGE: synclab bench [--quick] [--repeat N] [--scenarios FOLDER]
           synclab bench --discovery [--seeds N] [--jobs J] [--engine NAME]
                                 [--guided]

    Measures, as medians over N repetitions (default 5), with a release build
    (swift build -c release; .build/release/synclab bench):
      pingpong   the kernel alone: 1000 actors, 10,000,000 deliveries (BENCH.md)
      scenarios  full runs of each tour scenario: runs/s and simulated s per wall s
      explore    seeds/s of Scenarios/explore/swarm.chaos with --jobs 1 and --jobs 2
    With --growth or --download, only those workloads run:
      growth     seeds/s of swarm.chaos as operations grow from 100 to 800 and
                 devices from 3 to 100, and each figure's cost per seed relative
                 to linear growth
      download   seconds for a second device to download N records another inserted
    With --discovery, 'explore --swarm' runs seeds 1 to N (default 1000) on every
    engine (or --engine NAME) and prints, per weakness of the engine's catalogue,
    the first seed that fired it and the wall time until that seed was done, the
    share of the catalogue found, and the weaknesses not reached. With --guided, the
    sweeps are 'explore --swarm --guided' (a pilot of the first fifth of the seeds).

    OPTIONS:
      --quick             1,000,000 deliveries and shorter scenario batches
      --repeat N          repetitions per figure (default 5)
      --scenarios FOLDER  the scenarios to run (default Scenarios/tour)
      --growth            the growth workloads (with --quick: fewer seeds)
      --download N,...    the download workload for each number of records
      -h, --help          show this help
    """

    /// Whether the Swift runtime is a shared library loaded into this process (a plain
    /// `swift build`), rather than linked into the binary (`--static-swift-stdlib`, the
    /// release binary of README.md). Every retain and release then jumps through the dynamic
    /// linker's tables, which costs the explore workloads a quarter to a third of their speed.
    static var loadsSwiftRuntimeDynamically: Bool {
        #if os(Linux)
        guard let handle = dlopen("libswiftCore.so", RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
        #else
        return false
        #endif
    }

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let quick = options.flag("--quick")
        let repeatText = options.value("--repeat")
        let folder = options.value("--scenarios") ?? "Scenarios/tour"
        let growth = options.flag("--growth")
        let downloadText = options.value("--download")
        let discovery = options.flag("--discovery")
        let seedsText = options.value("--seeds")
        let jobsText = options.value("--jobs")
        let engineText = options.value("--engine")
        let guided = options.flag("--guided")
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            let known = ["--quick", "--repeat", "--scenarios", "--growth", "--download",
                "--discovery", "--seeds", "--jobs", "--engine", "--guided", "--help"]
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: known))")
        }
        let repetitions = repeatText.flatMap(Int.init) ?? 5
        guard repetitions > 0, repeatText == nil || Int(repeatText ?? "") != nil else {
            return usage("'--repeat' takes a positive number, not '\(repeatText ?? "")'")
        }
        let downloads = downloadText.map { $0.split(separator: ",").map { Int($0) } } ?? []
        guard downloads.allSatisfy({ ($0 ?? 0) > 0 }) else {
            return usage(
                "'--download' takes positive numbers of records, not '\(downloadText ?? "")'")
        }
        if discovery {
            return benchDiscovery(
                seeds: seedsText, jobs: jobsText, engine: engineText, guided: guided)
        }
        if guided { return usage("'--guided' goes with '--discovery'") }
        #if DEBUG
        print("note: this is a debug build; figures from "
            + "'swift build -c release --static-swift-stdlib' are the ones to report")
        #endif
        if loadsSwiftRuntimeDynamically {
            print(
                "note: this binary loads the Swift runtime dynamically; the figures to report come "
                    + "from 'swift build -c release --static-swift-stdlib' (docs/BENCH.md)")
        }
        print("allocator: \(MallocTuning.description)")
        if growth || !downloads.isEmpty {
            var status: Int32 = 0
            if growth {
                guard let (_, source) = ScenarioFiles.load(ExploreCommand.benchmarkFile) else {
                    return 2
                }
                status = max(status, BenchWorkloads.benchGrowth(
                    source: source, repetitions: repetitions, quick: quick))
            }
            if !downloads.isEmpty {
                status = max(status, BenchWorkloads.benchDownload(
                    records: downloads.compactMap { $0 }, repetitions: repetitions))
            }
            return status
        }
        benchPingPong(deliveries: quick ? 1_000_000 : PingPongBenchmark.defaultDeliveries,
                      repetitions: repetitions)
        let scenarios = benchScenarios(folder: folder, batchSeconds: quick ? 0.2 : 1.0,
                                       repetitions: repetitions)
        let explore = ExploreCommand.benchmark(seeds: quick ? 50 : 200, repetitions: repetitions)
        return max(scenarios, explore)
    }

    private static func benchPingPong(deliveries: Int, repetitions: Int) {
        let actors = PingPongBenchmark.defaultActors
        var rates: [Double] = []
        var checksum = ""
        for _ in 0..<repetitions {
            let clock = ContinuousClock()
            let start = clock.now
            let result = PingPongBenchmark.run(actors: actors, deliveries: deliveries, seed: 1)
            let seconds = seconds(clock.now - start)
            rates.append(Double(deliveries) / seconds)
            checksum = result.description
        }
        print("pingpong  actors=\(actors) deliveries=\(deliveries) seed=1  "
              + "median \(format(median(rates) / 1_000_000)) M events/s  (\(checksum))")
    }

    private static func benchScenarios(
        folder: String, batchSeconds: Double, repetitions: Int
    ) -> Int32 {
        let expanded = ScenarioFiles.expand([folder])
        expanded.errors.forEach(Terminal.writeError)
        for path in expanded.files {
            guard let (scenario, source) = ScenarioFiles.load(path) else { return 2 }
            var rates: [Double] = []
            var simulatedRates: [Double] = []
            for _ in 0..<repetitions {
                let clock = ContinuousClock()
                let start = clock.now
                var runs = 0
                var simulated: Int64 = 0
                while runs < 5 || seconds(clock.now - start) < batchSeconds {
                    let result = ScenarioRunner.run(
                        scenario, source: source,
                        options: EngineChoice.runOptions(engine: nil, seed: nil))
                    simulated += result.endTime.microseconds
                    runs += 1
                }
                let elapsed = seconds(clock.now - start)
                rates.append(Double(runs) / elapsed)
                simulatedRates.append(Double(simulated) / 1_000_000 / elapsed)
            }
            print("scenario  \(path)  median \(format(median(rates))) runs/s, "
                  + "\(format(median(simulatedRates))) simulated s per wall s")
        }
        return 0
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "bench") }

    private static func benchDiscovery(
        seeds: String?, jobs: String?, engine: String?, guided: Bool
    ) -> Int32 {
        guard let count = UInt64(seeds ?? "1000"), count > 0 else {
            return usage("'--seeds' takes a positive number, not '\(seeds ?? "")'")
        }
        guard let threads = Int(jobs ?? "1"), (1...256).contains(threads) else {
            return usage("'--jobs' takes a number from 1 to 256, not '\(jobs ?? "")'")
        }
        if let engine, EngineChoice.registry.profile(named: engine) == nil {
            return usage("unknown engine '\(engine)'"
                + "\(suggestion(engine, among: EngineChoice.registry.names))")
        }
        let engines = engine.map { [$0] } ?? EngineChoice.registry.names
        return DiscoveryBench.run(seeds: count, jobs: threads, engines: engines, guided: guided)
    }
}
