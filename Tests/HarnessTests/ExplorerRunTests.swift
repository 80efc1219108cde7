@testable import Harness
import SyncContract
import Engines
import Kernel
import Scenario
import Testing

/// One seed's run: deterministic, replayable from its steps, and writable as a plain
/// scenario that replays the same simulation.
@Suite struct ExplorerRunTests {
    @Test func theSameSeedGivesTheSameRun() {
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.notes)
        let (result, divergence) = explorer.runTwice(seed: 7)
        #expect(divergence == nil, "\(divergence?.description ?? "")")
        #expect(explorer.run(seed: 7) == result)
        #expect(result.steps >= 20)
    }

    @Test func seedsDrawDifferentRuns() {
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.notes)
        let first = explorer.drawnRun(seed: 1, options: explorer.options).steps
        let second = explorer.drawnRun(seed: 2, options: explorer.options).steps
        #expect(first != second)
    }

    @Test func replayingTheStepsReplaysTheRun() {
        var options = ExploreOptions(engines: .bundled)
        options.recordTrace = true
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.notes, options: options)
        let drawn = explorer.drawnRun(seed: 3, options: options)
        let replayed = explorer.replayedRun(seed: 3, plan: explorer.plan, steps: drawn.steps)
        #expect(TraceDivergence(drawn.world.trace, replayed.world.trace) == nil)
        #expect(drawn.check() == replayed.check())
    }

    /// The property shrinking relies on: the written scenario, run by `ScenarioRunner` as
    /// `synclab run` would, is the same simulation (device and cloud events identical).
    @Test func theWrittenScenarioReplaysTheSameSimulation() {
        var options = ExploreOptions(engines: .bundled)
        options.recordTrace = true
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.notes, options: options)
        let drawn = explorer.drawnRun(seed: 5, options: options)
        let text = ScenarioWriter.write(
            run: drawn, original: explorer.plan, seed: 5, removedDevices: [],
            violations: drawn.check(), summary: "test")
        let checked = ScenarioChecker.check(
            source: text, file: "written.scenario", options: EngineRegistry.bundled.validationOptions())
        #expect(checked.diagnostics.map(\.rendered) == [])
        #expect(!checked.scenario.chaos.isDeclared)
        let plain = ScenarioRunner.run(checked.scenario, source: text, options: RunOptions(engines: .bundled))
        func simulation(_ trace: Trace) -> [String] {
            trace.events.filter { $0.actor != "script" }.map(\.jsonLine)
        }
        #expect(simulation(plain.trace) == simulation(drawn.world.trace))
        #expect(plain.seed == 5)
    }

    @Test func runningAChaosFileRunsTheSeedsDrawOnce() {
        let source = ExplorerFixtures.lonely
        let scenario = ExplorerFixtures.scenario(source)
        let result = ScenarioRunner.run(scenario, source: source, options: RunOptions(engines: .bundled, seed: 4))
        #expect(result.passed)
        #expect(result.seed == 4)
        #expect(result.expectations.map(\.wanted) == [
            "chaos check convergence", "chaos check lost-change",
            "chaos check duplicate-identity", "chaos check resurrection",
            "chaos check liveness",
        ])
        #expect(result.trace.count > 100)
    }

    @Test func aLonelyDeviceRunsClean() {
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.lonely)
        for seed in UInt64(1)...3 {
            let result = explorer.run(seed: seed)
            #expect(result.outcome == .clean, "\(result.violations)")
        }
    }

    @Test func drawnLabelsAvoidTheFilesOwnLabels() {
        let source = """
            scenario "labels"
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            chaos workload 3 operations
            phone: insert Note c1
            settle
            """
        let explorer = ExplorerFixtures.explorer(source)
        #expect(explorer.plan.labelPrefix == "cc")
        #expect(explorer.run(seed: 1).outcome == .clean)
    }

    @Test func failedExpectationsOfTheTimelineAreFindings() {
        let source = ExplorerFixtures.lonely + "\nexpect cloud alice: count Note = 7\n"
        let result = ExplorerFixtures.explorer(source).run(seed: 1)
        #expect(result.outcome == .newFinding)
        #expect(result.violations.map(\.check) == [.expectation])
    }
}
