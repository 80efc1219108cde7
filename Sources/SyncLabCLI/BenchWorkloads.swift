import Foundation
import Harness
import Scenario

/// The growth and download workloads of `synclab bench` (docs/BENCH.md): scenario texts
/// generated from the explore workload, or from a count of records, so another tool can
/// build the same inputs from the description alone.
enum BenchWorkloads {
    /// swarm.chaos with `operations` operations and `devices` devices: the devices beyond
    /// phone, laptop and tablet are d4 … dN on the same account, and the workload acts with
    /// all of them.
    static func swarm(_ source: String, operations: Int, devices: Int) -> String {
        let workload = "chaos workload 100 operations on Note, Folder by phone, laptop, tablet"
        let lastDevice = "device tablet on alice\n"
        precondition(source.contains(workload) && source.contains(lastDevice),
                     "the explore workload changed; update BenchWorkloads.swarm")
        let extra = devices > 3 ? (4...devices).map { "d\($0)" } : []
        let names = ["phone", "laptop", "tablet"].prefix(devices) + extra
        var text = source.replacingOccurrences(
            of: workload,
            with: "chaos workload \(operations) operations on Note, Folder by "
                + names.joined(separator: ", "))
        text = text.replacingOccurrences(
            of: lastDevice, with: lastDevice + extra.map { "device \($0) on alice\n" }.joined())
        return text
    }

    /// One device inserts `records` notes in one transaction and uploads them while the
    /// other is offline; the other then comes online and downloads them all (the last two
    /// statements).
    static func download(records: Int) -> String {
        var text = """
        scenario "Bench: a first download of \(records) records"
        seed 1

        entity Note {
          title: String = ""
          body: String?
        }

        account alice
        device phone on alice
        device laptop on alice

        laptop: offline
        phone: begin

        """
        // Exactly the text's length: no doubling of a buffer of tens of megabytes.
        text.reserveCapacity(
            text.utf8.count + records * (56 + 3 * String(max(0, records - 1)).count) + 64)
        for index in 0..<records {
            text += "phone: insert Note n\(index) title=\"note \(index)\" "
            text += "body=\"body of note \(index)\"\n"
        }
        text += "phone: save\nsettle\n"
        text += "laptop: online\nsettle\n"
        return text
    }

    /// Seeds per second of a chaos text's sweep of seeds 1…`seeds`, one thread.
    static func seedsPerSecond(path: String, source: String, seeds: Int) -> Double? {
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineChoice.registry.validationOptions())
        guard !checked.hasErrors else {
            checked.diagnostics.forEach { Terminal.writeError($0.renderedWithNotes) }
            return nil
        }
        let makeExplorer = ExploreCommand.worker(
            path: path, source: source, options: ExploreOptions(engines: EngineChoice.registry))
        let clock = ContinuousClock()
        let start = clock.now
        let results = ExploreWorkers<Explorer, SeedResult>(count: seeds).run(
            jobs: 1, context: makeExplorer,
            work: { explorer, index in explorer.run(seed: UInt64(index + 1)) },
            progress: { _ in })
        precondition(results.allSatisfy { $0 != nil }, "a benchmark seed did not run")
        return Double(seeds) / seconds(clock.now - start)
    }

    /// Parses, checks and runs a scenario, with the trace counted but not kept (as in a
    /// sweep), and also times the last `markFromEnd` statements of its timeline: the whole
    /// time, and the wall and CPU seconds of those statements.
    static func runPhases(
        path: String, source: String, markFromEnd: Int
    ) -> (total: Double, afterMark: Double, afterMarkCPU: Double)? {
        let clock = ContinuousClock()
        let start = clock.now
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineChoice.registry.validationOptions())
        guard !checked.hasErrors else {
            checked.diagnostics.forEach { Terminal.writeError($0.renderedWithNotes) }
            return nil
        }
        // The run gets the only copy of the tree, so it can release each statement once run.
        let scenario = (consume checked).scenario
        let markIndex = scenario.timeline.count - markFromEnd
        let endIndex = scenario.timeline.count
        let marks = PhaseMarks()
        var options = EngineChoice.runOptions(engine: nil, seed: nil)
        options.recordTrace = false
        options.recordFinalState = false
        options.beforeStatement = { index in
            if index == markIndex || index == endIndex {
                marks.add(wall: clock.now, cpu: cpuSeconds())
            }
        }
        let result = ScenarioRunner.run(
            releasing: consume scenario, source: source, options: options)
        let end = clock.now
        guard result.failure == nil else {
            Terminal.writeError("\(path): the benchmark run failed: \(result.failure!.description)")
            return nil
        }
        guard marks.values.count == 2 else {
            Terminal.writeError("\(path): the benchmark run never reached statement \(markIndex)")
            return nil
        }
        let (from, to) = (marks.values[0], marks.values[1])
        return (seconds(end - start), seconds(to.wall - from.wall), to.cpu - from.cpu)
    }

    /// Where `runPhases` keeps the clock readings its statement callback takes.
    final class PhaseMarks: @unchecked Sendable {
        // Written by the run's thread, read by it after the run: no concurrent access.
        private(set) var values: [(wall: ContinuousClock.Instant, cpu: Double)] = []
        func add(wall: ContinuousClock.Instant, cpu: Double) { values.append((wall, cpu)) }
    }

    /// The CPU seconds (user and system) the process used so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's peak resident set so far, in MB.
    static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1024 / 1024  // bytes on macOS
        #endif
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The growth workloads: seeds/s of swarm.chaos as operations grow 100 → 800 and devices
    /// 3 → 100, each with its cost per seed relative to linear growth.
    static func benchGrowth(source: String, repetitions: Int, quick: Bool) -> Int32 {
        func measure(_ operations: Int, _ devices: Int) -> Double? {
            let text = swarm(source, operations: operations, devices: devices)
            // About the same work per figure: fewer seeds for bigger workloads.
            let seeds = max(2, (quick ? 20 : 60) * 300 / (operations * devices))
            var rates: [Double] = []
            for _ in 0..<repetitions {
                guard let rate = seedsPerSecond(
                    path: "swarm-\(operations)ops-\(devices)devices.chaos", source: text,
                    seeds: seeds)
                else { return nil }
                rates.append(rate)
            }
            return median(rates)
        }
        func report(_ label: String, _ rows: [(Int, Int)], scale: (Int, Int) -> Int) -> Bool {
            var base: (rate: Double, size: Int)?
            for (operations, devices) in rows {
                guard let rate = measure(operations, devices) else { return false }
                let size = scale(operations, devices)
                let first = base ?? (rate, size)
                base = first
                // Cost per seed grows by first.rate / rate; linear growth would be
                // size / first.size.
                let ratio = (first.rate / rate) / (Double(size) / Double(first.size))
                print("growth    \(label)  \(operations) operations, \(devices) devices: "
                      + "median \(format(rate)) seeds/s, "
                      + "cost per seed x\(format(first.rate / rate)) "
                      + "for x\(format(Double(size) / Double(first.size))) -> "
                      + "\(format(ratio)) of linear")
            }
            return true
        }
        guard report("operations", [(100, 3), (200, 3), (400, 3), (800, 3)], scale: { o, _ in o }),
              report("devices   ", [(100, 3), (100, 10), (100, 30), (100, 100)],
                     scale: { _, d in d })
        else { return 2 }
        return 0
    }

    /// The download workload: seconds to download N records on a second device (the run with
    /// the download minus the run without it), and the process's peak RSS.
    static func benchDownload(records counts: [Int], repetitions: Int) -> Int32 {
        var first: (seconds: Double, records: Int)?
        for records in counts {
            var totals: [Double] = []
            var downloads: [Double] = []
            // CPU seconds too: on a shared machine they are what stays comparable.
            var downloadsCPU: [Double] = []
            for _ in 0..<repetitions {
                // One run, its last two statements (`laptop: online`, `settle`: the download)
                // timed inside it: no difference of two runs, whose noise swamps the
                // download once the upload dominates.
                guard let run = runPhases(path: "download-\(records).scenario",
                                          source: download(records: records),
                                          markFromEnd: 2)
                else { return 2 }
                totals.append(run.total)
                downloads.append(run.afterMark)
                downloadsCPU.append(run.afterMarkCPU)
            }
            // Growth against the first size, in CPU seconds: time ×t for records ×r is t / r
            // of linear.
            var growth = ""
            if let first, first.seconds > 0, records != first.records {
                let time = median(downloadsCPU) / first.seconds
                let size = Double(records) / Double(first.records)
                growth = ", x\(format(time)) CPU time for x\(format(size)) records -> "
                    + "\(format(time / size)) of linear"
            }
            first = first ?? (median(downloadsCPU), records)
            print("download  \(records) records: median \(format(median(downloads))) s to download "
                  + "(\(format(median(downloadsCPU))) CPU s; "
                  + "\(format(median(totals))) s with the upload), "
                  + "peak RSS \(format(peakResidentMegabytes())) MB" + growth)
        }
        return 0
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
