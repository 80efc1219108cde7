import Engines
import Foundation
@testable import Harness
import Kernel
import Scenario
import SyncContract
import Testing
import TestSupport

/// The contract suite: what every registered engine must do, whatever it models
/// (docs/ENGINE-CONTRACT.md). Parameterised over the registry, so an engine added there is
/// checked here without a line of this file changing.
@Suite struct ContractSuiteTests {
    static let engines = EngineRegistry.bundled.names

    /// A small two-device workload on the engine, with an optional trigger line.
    static func workload(trigger: String = "") -> String {
        """
        scenario "Contract suite workload"
        entity Note {
          title: String = ""
          body: String?
        }
        account alice
        device phone on alice
        device laptop on alice
        chaos workload 12 operations on Note every 200ms..2s
        chaos mix insert 40% update 40% delete 20%
        chaos heal within 30m
        \(trigger)
        """
    }

    static func explorer(_ source: String, engine: String, kill: WriteKill? = nil) throws -> Explorer {
        var options = ExploreOptions(engines: .bundled, engine: engine)
        options.killAfterWrite = kill
        let checked = ScenarioChecker.check(
            source: source, file: "contract.chaos", options: options.validationOptions)
        try #require(!checked.hasErrors, "\(checked.diagnostics.map(\.rendered))")
        return Explorer(scenario: checked.scenario, source: source, options: options)
    }

    /// Violations no fired weakness of the engine explains, and budget failures.
    static func unexplained(_ result: SeedResult) -> [String] {
        result.violations.filter { !$0.isExplained || $0.check == .liveness }
            .map { "\($0.check.rawValue): \($0.message)" }
    }

    // MARK: Probe points

    @Test(arguments: engines)
    func probePointsComeInContractOrder(_ engine: String) throws {
        let profile = try #require(EngineRegistry.bundled.profile(named: engine))
        let contract = profile.probePointNames.filter(ProbePoint.contractOrder.contains)
        #expect(contract == ProbePoint.contractOrder)
        let run = try Self.explorer(Self.workload(), engine: engine).drawnRun(
            seed: 1, options: ExploreOptions(engines: .bundled, engine: engine, recordTrace: true))
        let passed = Self.probeThreads(run.world.trace.events)
        #expect(!passed.isEmpty, "no probe point passed at all")
        for thread in passed.keys.sorted() {
            let problems = Self.orderProblems(passed[thread] ?? [])
            #expect(problems.isEmpty, "\(engine) on \(thread): \(problems.prefix(3))")
        }
    }

    /// The contract probe points passed, per device, and per synchronization where several
    /// run at once on it (`EngineEffect.probeIn`: the trace's `sync`).
    static func probeThreads(_ events: [TraceEvent]) -> [String: [String]] {
        var passed: [String: [String]] = [:]
        for event in events where event.kind == "probe" {
            guard case .string(let point)? = event.details.first(where: { $0.key == "point" })?.value,
                ProbePoint.contractOrder.contains(point) else { continue }
            var thread = event.actor
            if case .int(let sync)? = event.details.first(where: { $0.key == "sync" })?.value {
                thread += " sync \(sync)"
            }
            passed[thread, default: []].append(point)
        }
        return passed
    }

    /// Two synchronizations interleaved on one device, each in order: one thread each, and
    /// both pass; the same points without `sync` are one thread, out of order.
    @Test func overlappingSynchronizationsAreCheckedEachOnItsOwn() {
        func probe(_ point: String, _ sync: Int?) -> TraceEvent {
            var details = [TraceField("point", .string(point))]
            if let sync { details.append(TraceField("sync", .int(Int64(sync)))) }
            return TraceEvent(time: .zero, actor: "phone", kind: "probe", details: details)
        }
        let steps: [(String, Int)] = [
            ("sync.start", 1), ("download.start", 1), ("download.done", 1), ("upload.start", 1),
            ("upload.sent", 1), ("sync.start", 2), ("download.start", 2), ("upload.done", 1),
            ("sync.done", 1), ("download.done", 2), ("upload.start", 2), ("upload.sent", 2),
            ("upload.done", 2), ("sync.done", 2),
        ]
        let threads = Self.probeThreads(steps.map { probe($0.0, $0.1) })
        #expect(threads.keys.sorted() == ["phone sync 1", "phone sync 2"])
        for points in threads.values { #expect(Self.orderProblems(points).isEmpty) }
        let oneThread = Self.probeThreads(steps.map { probe($0.0, nil) })
        #expect(!Self.orderProblems(oneThread["phone"] ?? []).isEmpty)
    }

    /// Where a device's contract probe points leave the contract's order: each point must
    /// follow the one before it in the order, a page's points may start a new page, an
    /// upload may send again, and a synchronization may end from anywhere.
    static func orderProblems(_ points: [String]) -> [String] {
        let order = ProbePoint.contractOrder
        var problems: [String] = []
        var previous = "sync.done"
        for point in points {
            guard let from = order.firstIndex(of: previous), let to = order.firstIndex(of: point) else {
                continue
            }
            let again: Set<String> = ["download.page.fetched", "upload.sent"]
            let allowed = to > from && (point == "sync.done" || to == from + 1 || Self.mayJump(previous, point))
                || (again.contains(point) && to <= from && previous != "sync.done")
                || (previous == "sync.done" && point == "sync.start")
            if !allowed { problems.append("\(previous) → \(point)") }
            previous = point
        }
        return problems
    }

    /// Steps that skip points of the order: a download that ends without pages (or after
    /// its last page), an upload with nothing to send.
    static func mayJump(_ from: String, _ to: String) -> Bool {
        let jumps: Set<String> = [
            "download.start>download.done", "download.page.saved>download.done",
            "upload.start>upload.done", "upload.sent>upload.done",
            "download.page.fetched>download.done",
        ]
        return jumps.contains("\(from)>\(to)")
    }

    // MARK: Kills

    @Test(arguments: engines)
    func aKillAtEveryProbePointEndsInAStateTheCatalogueExplains(_ engine: String) throws {
        let profile = try #require(EngineRegistry.bundled.profile(named: engine))
        var problems: [String] = []
        for point in profile.probePointNames {
            for occurrence in [1, 3] {
                let trigger = "when phone reaches \(point) \(occurrence): phone: kill"
                let result = try Self.explorer(Self.workload(trigger: trigger), engine: engine)
                    .run(seed: 1)
                problems += Self.unexplained(result).map { "kill at \(point) \(occurrence): \($0)" }
            }
        }
        Self.expectExplained(problems, engine: engine)
    }

    /// Every problem must be explained by a fired weakness of the engine's catalogue. (sds's
    /// former known finding here, an upload whose answer a kill lost being sent again over
    /// newer values, is fixed: SYNC-4 counts such keys as uploaded once a download shows the
    /// record changed; Tests/Regressions/kill-between-upload-and-answer.scenario.)
    static func expectExplained(_ problems: [String], engine: String) {
        let shown = problems.filter { !$0.hasPrefix("trace of") }
        #expect(shown.isEmpty, "\(engine):\n\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: engines)
    func aKillBetweenEveryTwoWritesEndsInAStateTheCatalogueExplains(_ engine: String) throws {
        let plain = try Self.explorer(Self.workload(), engine: engine).drawnRun(
            seed: 1, options: ExploreOptions(engines: .bundled, engine: engine))
        let index = try #require(plain.world.deviceIndex["phone"])
        let writes = plain.world.writeCounts[index]
        #expect(writes > 1, "\(engine) wrote its disk \(writes) time(s) in a whole workload")
        var problems: [String] = []
        var killed = 0
        for write in 1...max(1, min(writes, 80)) {
            let kill = WriteKill(device: "phone", write: write)
            let explorer = try Self.explorer(Self.workload(), engine: engine, kill: kill)
            var options = explorer.options
            options.recordTrace = true
            let run = explorer.drawnRun(seed: 1, options: options)
            if run.world.trace.events.contains(where: { $0.kind == "kill.after-write" }) {
                killed += 1
            }
            let result = SeedResult(seed: 1, run: run, violations: run.check())
            let found = Self.unexplained(result).map { "kill after write \(write): \($0)" }
            if !found.isEmpty && problems.isEmpty {
                // The first failing run's trace, to read what happened around the kill.
                let url = FileManager.default.temporaryDirectory
                    .appendingPathComponent("contract-\(engine)-write-\(write).jsonl")
                try run.world.trace.jsonLines().write(to: url, atomically: true, encoding: .utf8)
                problems.append("trace of the first: \(url.path)")
            }
            problems += found
        }
        #expect(killed > 0, "no kill fell between two writes")
        Self.expectExplained(problems, engine: engine)
    }

    // MARK: Determinism, tour, explorer

    @Test(arguments: engines)
    func twoProcessesWriteIdenticalTraces(_ engine: String) throws {
        let folder = try TestSupport.temporaryFolder("contract-\(engine)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "Scenarios/tour/02-offline-edit-merges-per-key.scenario"
        var traces: [Data] = []
        for run in 0..<2 {
            let out = folder.appendingPathComponent("trace-\(run).jsonl").path
            let result = try TestSupport.runSynclab(["run", path, "--engine", engine, "--trace-out", out])
            #expect(result.status != 2, "\(result.standardError)")
            traces.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(!traces[0].isEmpty)
        #expect(traces[0] == traces[1], "\(engine): two processes wrote different traces")
    }

    @Test(arguments: engines)
    func theTourRunsWithoutCrashHangOrBudgetFailure(_ engine: String) throws {
        let lab = EngineRegistry.bundled
        for path in TestSupport.scenarioFiles(under: "Scenarios/tour") {
            let source = try TestSupport.read(path)
            let checked = ScenarioChecker.check(
                source: source, file: path, options: lab.validationOptions(engine: engine))
            let errors = checked.diagnostics.filter { $0.severity == .error }
            // A statement the engine cannot carry out is refused up front, naming the engine.
            if !errors.isEmpty {
                #expect(errors.allSatisfy { $0.message.contains("engine '\(engine)'") },
                        "\(path): \(errors.map(\.rendered))")
                continue
            }
            var options = RunOptions(engines: lab, maxEvents: 200_000, maxTime: .hours(24 * 30))
            options.engine = engine
            let result = ScenarioRunner.run(checked.scenario, source: source, options: options)
            let message = result.failure?.message ?? ""
            #expect(!message.contains("budget") && !message.contains("did not happen within"),
                    "\(engine) \(path): \(message)")
        }
    }

    @Test(arguments: engines)
    func theExplorersCheckersRunOnIt(_ engine: String) throws {
        let source = try TestSupport.read("Scenarios/explore/swarm.chaos")
        var options = ExploreOptions(engines: .bundled, engine: engine)
        options.shrinkRuns = 0
        let checked = ScenarioChecker.check(
            source: source, file: "swarm.chaos", options: options.validationOptions)
        try #require(!checked.hasErrors)
        let explorer = Explorer(scenario: checked.scenario, source: source, options: options)
        for seed in UInt64(1)...3 {
            let result = explorer.run(seed: seed)
            #expect(result.outcome != .budgetFailure, "\(engine) seed \(seed): \(result.violations)")
            let weaknesses = Set(EngineRegistry.bundled.profile(named: engine)?.catalogue.weaknesses.map(\.id) ?? [])
            #expect(result.explainedBy.allSatisfy(weaknesses.contains))
        }
    }
}
