import Engines
import Harness
import Kernel
import Scenario
import SyncContract
import Testing
import TestSupport

/// `cloud missing-deletes unknown-item` (issue 14, docs/CLOUDSIM.md): every engine meets a
/// per-item `unknownItem` on a delete without crashing, looping or running out of budget, and
/// `cloud missing-deletes succeed` changes nothing at all (it is the default).
@Suite struct MissingDeletesEngineTests {
    static let engines = EngineRegistry.bundled.names

    static func story(setting: String, twoDevices: Bool) -> String {
        let laptopDeletes = """
            phone: insert Note n1 title="A"
            settle
            wait 5s
            phone: delete n1
            laptop: delete n1
            settle

            """
        return """
            scenario "A delete of a missing record"
            seed 17
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            \(setting)
            settle
            \(twoDevices ? laptopDeletes : "")phone: insert Note n2 title="Scratch"
            phone: delete n2
            settle
            """
    }

    static func run(_ source: String, engine: String) -> RunResult {
        let checked = ScenarioChecker.check(
            source: source, file: "missing-deletes.scenario",
            options: EngineRegistry.bundled.validationOptions())
        #expect(!checked.hasErrors, "\(checked.diagnostics.map(\.rendered))")
        var options = RunOptions(engines: .bundled)
        options.engine = engine
        return ScenarioRunner.run(checked.scenario, source: source, options: options)
    }

    /// Both devices delete a note at once (the later delete finds no record), and the phone
    /// deletes a note just created: whatever the engine makes of `unknownItem`, the run ends
    /// without a runtime failure or a budget failure. `naive-literal` never downloads (the laptop has no
    /// note to delete) and never sends a delete (NAIVE-18), so it only has to end.
    @Test(arguments: engines)
    func everyEngineMeetsUnknownItemOnADelete(_ engine: String) {
        let literal = engine == "naive-literal"
        let result = Self.run(
            Self.story(setting: "cloud missing-deletes unknown-item", twoDevices: !literal), engine: engine)
        #expect(result.failure == nil, "\(engine): \(String(describing: result.failure))")
        let answered = result.trace.events.contains { event in
            event.kind == "request.handled"
                && event.detailStrings.contains { $0.hasSuffix(": unknownItem") }
        }
        #expect(answered != literal, "\(engine): a delete was answered unknownItem: \(answered)")
    }

    @Test(arguments: engines)
    func succeedIsTheDefault(_ engine: String) {
        let twoDevices = engine != "naive-literal"
        let implicit = Self.run(Self.story(setting: "", twoDevices: twoDevices), engine: engine)
        let explicit = Self.run(
            Self.story(setting: "cloud missing-deletes succeed", twoDevices: twoDevices), engine: engine)
        #expect(implicit.trace.jsonLines() == explicit.trace.jsonLines())
        #expect(implicit.failure == nil)
    }
}
