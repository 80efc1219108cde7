@testable import Harness
import Engines
import Kernel
import Scenario
import SyncContract
import TestSupport
import Testing

/// Probe points passed in line (World+InLineProbes.swift) leave the run as it was: the same
/// trace, event for event, the same expectations, leftovers and final state, as the run in
/// which every probe point waits for its `.resume` event.
@Suite struct InLineProbeTests {
    static let files = TestSupport.scenarioFiles()

    private static func run(_ path: String, inLine: Bool) throws -> RunResult? {
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        guard !checked.hasErrors else { return nil }
        var options = RunOptions(engines: .bundled)
        options.probesPassInLine = inLine
        return ScenarioRunner.run(checked.scenario, source: source, options: options)
    }

    @Test(arguments: files)
    func aScenarioRunsTheSameWithProbesPassedInLine(_ path: String) throws {
        guard let waiting = try Self.run(path, inLine: false),
            let inLine = try Self.run(path, inLine: true) else { return }
        #expect(waiting.probesPassedInLine == 0)
        #expect(inLine.trace.jsonLines() == waiting.trace.jsonLines(), "\(path): the traces differ")
        #expect(inLine.expectations == waiting.expectations)
        #expect(inLine.failure == waiting.failure)
        #expect(inLine.leftovers == waiting.leftovers)
        #expect(inLine.finalState == waiting.finalState)
        #expect(inLine.firedRules == waiting.firedRules)
        #expect(inLine.endTime == waiting.endTime)
    }

    /// Not an empty comparison: `settle` lets a device's probe points pass in line (the
    /// `.resume` waiting keeps the device from being idle, so the check between the two
    /// could not end the wait), and the tour's runs do.
    @Test func theTourPassesProbePointsInLine() throws {
        var passed = 0
        for path in TestSupport.scenarioFiles(under: "Scenarios/tour") {
            passed += try Self.run(path, inLine: true)?.probesPassedInLine ?? 0
        }
        #expect(passed > 20, "the tour passed \(passed) probe points in line")
    }

    /// The explorer's drawn runs (faults, kills, heals) are the same too, seed by seed, on
    /// every bundled chaos file. (A scenario's `settle` and `wait` check the world between
    /// events, so its runs pass few points in line; a sweep's fault phase passes most.)
    @Test(arguments: ExplorerFixtures.bundledFiles)
    func explorerSeedsRunTheSameWithProbesPassedInLine(_ file: String) throws {
        var options = ExploreOptions(engines: .bundled, recordTrace: true)
        let inLine = try ExplorerFixtures.bundled(file, options: options)
        options.probesPassInLine = false
        let waiting = try ExplorerFixtures.bundled(file, options: options)
        var passed = 0
        for seed in UInt64(1)...4 {
            let fast = inLine.drawnRun(seed: seed, options: inLine.options)
            let slow = waiting.drawnRun(seed: seed, options: waiting.options)
            passed += fast.world.probesPassedInLine
            #expect(slow.world.probesPassedInLine == 0)
            #expect(fast.world.trace.jsonLines() == slow.world.trace.jsonLines(),
                    "\(file) seed \(seed): the traces differ")
            #expect(fast.check() == slow.check(), "\(file) seed \(seed)")
        }
        // Not an empty comparison: sds sweeps pass points in line (swarm.chaos hundreds a
        // seed; a file of races set off by triggers, few).
        if inLine.plan.scenario.header.effectiveEngine == "sds" {
            #expect(passed > (file == "swarm.chaos" ? 400 : 0),
                    "\(file): \(passed) probe points passed in line")
        }
    }

    /// A pass in line counts as the `.resume` event it stands for: a run that breaks its
    /// event budget breaks it at the same event, with the same trace up to there.
    @Test func anEventBudgetEndsBothRunsAtTheSameEvent() throws {
        var options = ExploreOptions(engines: .bundled, recordTrace: true, maxEvents: 700)
        let inLine = try ExplorerFixtures.bundled("swarm.chaos", options: options)
        options.probesPassInLine = false
        let waiting = try ExplorerFixtures.bundled("swarm.chaos", options: options)
        for seed in UInt64(1)...4 {
            let fast = inLine.drawnRun(seed: seed, options: inLine.options)
            let slow = waiting.drawnRun(seed: seed, options: waiting.options)
            #expect(fast.world.probesPassedInLine > 0)
            #expect(slow.world.failure?.message.contains("budget") == true,
                    "seed \(seed): \(slow.world.failure?.message ?? "no failure")")
            #expect(fast.world.failure == slow.world.failure, "seed \(seed)")
            #expect(fast.world.trace.jsonLines() == slow.world.trace.jsonLines(),
                    "seed \(seed): the traces differ")
        }
    }

    /// A world set up for the tour's first scenario, not started.
    private static func tourWorld() throws -> World {
        let path = "Scenarios/tour/01-first-sync.scenario"
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        return World(scenario: checked.scenario, seed: 1, options: RunOptions(engines: .bundled))
    }

    /// An engine that passes a probe point in line where its event did not allow it fails
    /// the run with a message naming it, instead of changing the run unseen.
    @Test func aPassInLineThatWasNotAllowedFailsTheRun() throws {
        let world = try Self.tourWorld()
        #expect(!world.passInLine("sync.start", index: 0))
        let message = world.failure?.message ?? ""
        #expect(message.contains("passed probe point 'sync.start' in line"), "\(message)")
    }

    /// Nor after the event completed or failed a waiting action: the script's wait would
    /// have ended before the `.resume`.
    @Test func aPassInLineAfterAnEndedWaitFailsTheRun() throws {
        let world = try Self.tourWorld()
        world.inLinePasses[0] = 1
        world.endedWaitInEvent[0] = true
        #expect(!world.passInLine("sync.done", index: 0))
        let message = world.failure?.message ?? ""
        #expect(message.contains("after it ended a waiting action"), "\(message)")
    }

    /// A run that a livelock ends (a synchronization started a thousand times at one
    /// instant, which takes a latency of zero, where no pass is granted) ends the same way.
    @Test func aLivelockEndsBothRunsTheSameWay() {
        var options = RunOptions(engines: .bundled)
        options.mechanisms["ignoresRetryWhenSyncWanted"] = true
        let source = RuntimeRobustnessTests.header + RuntimeRobustnessTests.livelock
        let inLine = RuntimeRobustnessTests.run(source, options: options)
        options.probesPassInLine = false
        let waiting = RuntimeRobustnessTests.run(source, options: options)
        #expect(waiting.failure?.message.hasPrefix("livelock:") == true)
        #expect(inLine.failure == waiting.failure)
        #expect(inLine.trace.jsonLines() == waiting.trace.jsonLines())
        #expect(inLine.finalState == waiting.finalState)
    }

    /// No pass is granted once the livelock guard could fire at one of them
    /// (`LivenessGuard.hasRoom`): a run that failed at a pass would leave on the lent disk
    /// what the engine did after it.
    @Test func theLivelockGuardSaysWhetherPassesHaveRoom() {
        var guardian = LivenessGuard(limit: 4)
        let now = SimTime.seconds(1)
        #expect(guardian.hasRoom(for: 3, at: now))
        let accepted = guardian.noteStart(at: now)
        #expect(accepted)
        #expect(!guardian.hasRoom(for: 3, at: now))
        #expect(guardian.hasRoom(for: 2, at: now))
        #expect(guardian.hasRoom(for: 3, at: .seconds(2)), "a new instant starts from zero")
    }
}
