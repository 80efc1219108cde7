import Engines
import Harness
import Kernel
import Scenario
import SyncContract
import Testing

/// `cloud child-saves touch-parent` reaches the simulated cloud (docs/CLOUDSIM.md row 43):
/// a child's save touches its parent from the setup or from the timeline on, and
/// `leave-parent` changes nothing at all (it is the default).
@Suite struct ChildSavesWorldTests {
    static func story(setup: String, timeline: String = "") -> String {
        """
        scenario "A child saved after its parent"
        seed 43
        engine sds
        entity Folder {
          name: String = ""
          notes: [Note] inverse(folder)
        }
        entity Note {
          title: String = ""
          folder: Folder? parent
        }
        account alice
        device phone on alice
        \(setup)
        settle
        phone: insert Folder f1 name="Trips"
        settle
        \(timeline)
        phone: insert Note n1 title="Packing list" folder=f1
        settle
        expect converged
        """
    }

    static func run(_ source: String) -> RunResult {
        let checked = ScenarioChecker.check(
            source: source, file: "child-saves.scenario",
            options: EngineRegistry.bundled.validationOptions())
        #expect(!checked.hasErrors, "\(checked.diagnostics.map(\.rendered))")
        return ScenarioRunner.run(checked.scenario, source: source, options: RunOptions(engines: .bundled))
    }

    static func touches(_ result: RunResult) -> Int {
        result.trace.events.filter { $0.kind == "record.parent-touched" }.count
    }

    @Test func touchParentInTheSetupTouchesTheFolder() {
        let result = Self.run(Self.story(setup: "cloud child-saves touch-parent"))
        #expect(result.passed, "\(String(describing: result.failure))")
        #expect(Self.touches(result) == 1)
    }

    @Test func touchParentOnTheTimelineTouchesFromThenOn() {
        let result = Self.run(Self.story(setup: "", timeline: "cloud: child-saves touch-parent"))
        #expect(result.passed)
        #expect(Self.touches(result) == 1)
    }

    @Test func leaveParentIsTheDefault() {
        let implicit = Self.run(Self.story(setup: ""))
        let explicit = Self.run(Self.story(setup: "cloud child-saves leave-parent"))
        #expect(Self.touches(implicit) == 0)
        #expect(implicit.trace.jsonLines() == explicit.trace.jsonLines())
    }
}
