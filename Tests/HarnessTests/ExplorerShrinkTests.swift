@testable import Harness
import SyncContract
import Engines
import Scenario
import Testing

/// Shrinking, and the canary that proves a clean sweep means something: an engine that
/// leaves a key out of synchronization must be caught as a new finding and shrunk to a
/// handful of steps.
@Suite struct ExplorerShrinkTests {
    static func canaryOptions(shrinkRuns: Int = 150) -> ExploreOptions {
        var options = ExploreOptions(engines: .bundled, shrinkRuns: shrinkRuns)
        options.canary = .unsynchronizedKey(device: "phone", entity: "Note", key: "body")
        return options
    }

    @Test func theCanaryIsCaughtAndShrunkToAHandfulOfSteps() throws {
        let explorer = ExplorerFixtures.explorer(
            ExplorerFixtures.notes, options: Self.canaryOptions())
        let results = (UInt64(1)...4).map { explorer.run(seed: $0) }
        let caught = results.filter { $0.outcome == .newFinding }
        #expect(caught.count >= 2, "\(results.map(\.outcome))")
        let finding = try #require(caught.first)
        let shrunk = try #require(explorer.shrink(finding))
        #expect(shrunk.report.stepsAfter <= 5, "\(shrunk.text)")
        #expect(shrunk.report.stepsAfter < shrunk.report.stepsBefore)
        #expect(shrunk.report.reproduces)
        #expect(shrunk.report.runs <= 150)
        #expect(shrunk.text.contains("expect "))
        // Without the canary, the engine is fine: the scenario passes once "fixed".
        let checked = ScenarioChecker.check(
            source: shrunk.text, file: shrunk.report.file,
            options: EngineRegistry.bundled.validationOptions())
        #expect(checked.diagnostics.map(\.rendered) == [])
        let fixed = ScenarioRunner.run(checked.scenario, source: shrunk.text, options: RunOptions(engines: .bundled))
        #expect(fixed.passed, "\(fixed.expectations.filter { !$0.passed })")
    }

    /// The engine's own canary switch: pending changes lost at every launch.
    @Test func theEnginesForgetfulCanaryIsCaughtToo() throws {
        let source = """
            scenario "Kills"
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            chaos workload 20 operations every 200ms..2s
            chaos fault offline 10% for 5s..30s
            chaos fault kill 15% for 1s..5s
            """
        var options = ExploreOptions(engines: .bundled, shrinkRuns: 150)
        options.canary = .brokenMechanism
        let explorer = ExplorerFixtures.explorer(source, options: options)
        let plain = ExplorerFixtures.explorer(source)
        let seeds = UInt64(1)...8
        let caught = try #require(seeds.first { seed in
            explorer.run(seed: seed).outcome == .newFinding
                && plain.run(seed: seed).outcome != .newFinding
        })
        let shrunk = try #require(explorer.shrink(explorer.run(seed: caught)))
        #expect(shrunk.report.stepsAfter <= 6, "\(shrunk.text)")
        #expect(shrunk.report.reproduces)
        #expect(shrunk.text.contains("kill"))
    }

    @Test func withoutTheCanaryTheSameSeedsAreNotThoseFindings() {
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.notes)
        let canary = ExplorerFixtures.explorer(
            ExplorerFixtures.notes, options: Self.canaryOptions())
        for seed in UInt64(1)...4 {
            let clean = explorer.run(seed: seed)
            let broken = canary.run(seed: seed)
            #expect(clean.violations.count <= broken.violations.count)
        }
    }

    @Test func shrinkingStaysWithinItsBudget() throws {
        let explorer = ExplorerFixtures.explorer(
            ExplorerFixtures.notes, options: Self.canaryOptions(shrinkRuns: 3))
        let finding = try #require((UInt64(1)...4).map { explorer.run(seed: $0) }
            .first { $0.outcome == .newFinding })
        let shrunk = try #require(explorer.shrink(finding))
        #expect(shrunk.report.runs <= 3)
    }

    @Test func cleanSeedsAreNotShrunk() {
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.lonely)
        #expect(explorer.shrink(explorer.run(seed: 1)) == nil)
    }

    @Test func removingAnInsertRemovesWhatUsesItsLabel() {
        func step(_ group: Int, _ action: ChaosAction) -> ChaosStep {
            ChaosStep(offset: .zero, action: action, group: group)
        }
        let steps = [
            step(1, .insert(device: "phone", entity: "Note", label: "c1", values: [])),
            step(2, .insert(device: "phone", entity: "Folder", label: "c2", values: [])),
            step(3, .update(device: "phone", label: "c2", values: [
                ChaosAssignment(key: "note", literal: .label("c1"), text: "c1"),
            ])),
            step(4, .reject(label: "c2")),
            step(5, .device("phone", .offline)),
            step(4, .accept(label: "c2")),
        ]
        #expect(Shrinker.steps(steps, without: [1]).map(\.group) == [2, 4, 5, 4])
        #expect(Shrinker.steps(steps, without: [2]).map(\.group) == [1, 5])
        #expect(Shrinker.steps(steps, without: [4]).map(\.group) == [1, 2, 3, 5])
    }

    @Test func labelsAreRenumberedInOrder() {
        let steps = [
            ChaosStep(offset: .zero, action: .insert(
                device: "phone", entity: "Note", label: "c7", values: []), group: 1),
            ChaosStep(offset: .zero, action: .delete(device: "laptop", label: "c7"), group: 2),
            ChaosStep(offset: .zero, action: .insert(
                device: "phone", entity: "Note", label: "c3", values: []), group: 3),
        ]
        let renamed = Shrinker.renumbered(steps, prefix: "c").map(\.action.text)
        #expect(renamed == ["phone: insert Note c1", "laptop: delete c1", "phone: insert Note c2"])
    }
}
