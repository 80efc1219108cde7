import Scenario
import Testing

/// `engines A, B` and `expect [ENGINE] …` (a SyncLab addition, issue 17): one story, with
/// expectations per engine, each checked against that engine's catalogue.
@Suite struct PerEngineExpectationTests {
    static func messages(_ header: String, _ body: String, override: String? = nil) -> [String] {
        let source = """
            scenario "per engine"
            \(header)
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            \(body)
            """
        var options = EngineFactsTests.options
        options.engineOverride = override
        return ScenarioChecker.check(source: source, file: "f.scenario", options: options)
            .diagnostics.map(\.rendered)
    }

    @Test func theEnginesLineAndScopedExpectationsParse() {
        let source = """
            scenario "per engine"
            engines big, mini
            account alice
            device phone on alice
            expect [mini] phone: fired MINIW-1
            expect phone: state idle
            """
        let scenario = ScenarioParser.parse(source: source, file: "f").scenario
        #expect(scenario.header.engines.map(\.value) == ["big", "mini"])
        #expect(scenario.header.effectiveEngine == "big")
        #expect(scenario.header.storyEngines == ["big", "mini"])
        #expect(scenario.header.isMultiEngine)
        let expectations = scenario.timeline.compactMap { statement -> Scenario.Expectation? in
            if case .expectation(let expectation) = statement.kind { return expectation }
            return nil
        }
        #expect(expectations.map { $0.engine?.value } == ["mini", nil])
        #expect(expectations[0].applies(to: "mini"))
        #expect(!expectations[0].applies(to: "big"))
        #expect(expectations[1].applies(to: "big") && expectations[1].applies(to: "mini"))
    }

    @Test func aFileWithoutTheLineKeepsItsMeaning() {
        let source = "scenario \"x\"\nengine mini\naccount a\ndevice d on a\nexpect d: state idle\n"
        let scenario = ScenarioParser.parse(source: source, file: "f").scenario
        #expect(scenario.header.engines.isEmpty)
        #expect(!scenario.header.isMultiEngine)
        #expect(scenario.header.storyEngines == ["mini"])
        if case .expectation(let expectation) = scenario.timeline.last?.kind {
            #expect(expectation.engine == nil)
        } else {
            Issue.record("no expectation")
        }
    }

    @Test func scopedExpectationsAreCheckedAgainstTheirEnginesCatalogue() {
        #expect(Self.messages("engines big, mini", """
            expect [mini] phone: fired MINIW-1
            expect [big] phone: fired BIG-1
            expect [big] phone: state stopped
            expect [mini] phone: state waiting(retryAfter)
            """).isEmpty)
        #expect(Self.messages("engines big, mini", "expect [big] phone: fired MINIW-1") == [
            "f.scenario:8:27: error: unknown rule 'MINIW-1'",
        ])
        #expect(Self.messages("engines big, mini", "expect [mini] phone: state stopped") == [
            "f.scenario:8:28: error: unknown state 'stopped'",
        ])
        // Whatever engine the run is on, a scoped expectation is checked against its own.
        #expect(Self.messages("engines big, mini", "expect [mini] phone: fired MINIW-1",
            override: "big").isEmpty)
    }

    @Test func unscopedExpectationsMustHoldMeaningOnEveryListedEngine() {
        #expect(Self.messages("engines big, mini", "expect phone: fired BIG-1") == [
            "f.scenario:8:21: error: unknown rule 'BIG-1'",
        ])
        #expect(Self.messages("engines big, mini", "expect phone: state idle").isEmpty)
        #expect(Self.messages("engines big, mini", "when phone reaches mini.step: phone: sync") == [
            "f.scenario:8:20: error: unknown probe point 'mini.step'; 'synclab probes --engine "
                + "big' lists the probe points of engine 'big'",
        ])
        #expect(Self.messages("engines big, mini", "phone: stop") == [
            "f.scenario:8:1: error: engine 'mini' does not support 'stop'",
        ])
    }

    @Test func enginesOfTheLineAreKnownListedOnceAndIncludeTheEngineLine() {
        #expect(Self.messages("engines big, mni", "") == [
            "f.scenario:2:14: error: unknown engine 'mni'; did you mean 'mini'?",
        ])
        #expect(Self.messages("engines big, big", "").first?.hasPrefix(
            "f.scenario:2:14: error: duplicate engine 'big'") == true)
        #expect(Self.messages("engines big\nengine mini", "") == [
            "f.scenario:3:8: error: engine 'mini' is not in the file's 'engines' line ('big')",
        ])
        #expect(Self.messages("engines big, mini\nengines big", "").first?.hasPrefix(
            "f.scenario:3:1: error: second 'engines' statement") == true)
    }

    @Test func aScopedExpectationNamesAnEngineOfTheLine() {
        #expect(Self.messages("engines big, mini", "expect [mimi] phone: state idle") == [
            "f.scenario:8:9: error: engine 'mimi' is not in the file's 'engines' line ('big', 'mini'); did you mean 'mini'?",
        ])
        #expect(Self.messages("engine mini", "expect [mini] phone: state idle") == [
            "f.scenario:8:9: error: engine 'mini' is not in an 'engines' line; add 'engines mini, …' to the setup",
        ])
        #expect(Self.messages("engines big, mini", "expect [mini phone: state idle") == [
            "f.scenario:8:14: error: expected ']', found 'phone'"])
    }
}
