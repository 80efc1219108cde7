import Scenario
import Testing

/// The checks that depend on the scenario's engine, from facts its callers pass as plain
/// data: statements it cannot carry out, its states, its rules and probe points.
@Suite struct EngineFactsTests {
    static let options: ValidationOptions = {
        var options = ValidationOptions(engines: ["big", "mini"])
        options.engineStatements = ["sync", "stop", "start", "share"]
        options.engineFacts["big"] = EngineFacts(
            probePoints: ["sync.start", "sync.done"], ruleIDs: ["BIG-1"],
            stateNames: ["idle", "stopped"], statements: ["sync", "stop", "start", "share"])
        options.engineFacts["mini"] = EngineFacts(
            probePoints: ["sync.start", "mini.step"], ruleIDs: ["MINI-1", "MINIW-1"],
            stateNames: ["idle", "waiting(retryAfter)"], statements: ["sync"])
        return options
    }()

    static func messages(_ body: String, engine: String = "mini", override: String? = nil) -> [String] {
        let source = """
            scenario "facts"
            engine \(engine)
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            \(body)
            """
        var options = Self.options
        options.engineOverride = override
        return ScenarioChecker.check(source: source, file: "f.scenario", options: options)
            .diagnostics.map(\.rendered)
    }

    @Test func aStatementTheEngineCannotCarryOutIsAPlacedErrorNamingIt() {
        #expect(Self.messages("phone: stop") == [
            "f.scenario:8:1: error: engine 'mini' does not support 'stop'",
        ])
        #expect(Self.messages("phone: sync").isEmpty)
        #expect(Self.messages("phone: stop", engine: "big").isEmpty)
    }

    @Test func statesRulesAndProbePointsAreTheEngines() {
        #expect(Self.messages("expect phone: state stopped") == [
            "f.scenario:8:21: error: unknown state 'stopped'",
        ])
        #expect(Self.messages("expect phone: state waiting(retryAfter)").isEmpty)
        #expect(Self.messages("expect fired BIG-1").first?.contains("unknown rule 'BIG-1'") == true)
        #expect(Self.messages("expect fired MINIW-1").isEmpty)
        #expect(Self.messages("when phone reaches mini.step: phone: sync").isEmpty)
        #expect(Self.messages("when phone reaches sync.done: phone: sync").first?
            .contains("unknown probe point 'sync.done'") == true)
    }

    @Test func theOverrideDecidesWhichEngineTheFileIsCheckedFor() {
        #expect(Self.messages("phone: stop", engine: "big", override: "mini") == [
            "f.scenario:8:1: error: engine 'mini' does not support 'stop'",
        ])
        #expect(Self.messages("phone: stop", engine: "mini", override: "big").isEmpty)
    }
}

/// Run with another engine (`--engine`), a file's `fired` expectations on its own engine's
/// rules still run (they may fail: outcomes differ between engines); other unknown IDs do not.
@Suite struct EngineOverrideRuleTests {
    @Test func theFilesOwnEngineRulesPassTheOverrideOthersDoNot() {
        #expect(EngineFactsTests.messages("expect fired BIG-1", engine: "big", override: "mini").isEmpty)
        #expect(EngineFactsTests.messages("expect fired BIG-1", engine: "mini", override: "mini").first?
            .contains("unknown rule 'BIG-1'") == true)
        #expect(EngineFactsTests.messages("expect fired NOPE-1", engine: "big", override: "mini").first?
            .contains("unknown rule 'NOPE-1'") == true)
    }
}
