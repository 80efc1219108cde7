import Engines
import Harness
import Reporting
import Scenario
import Testing

/// Reports are byte-stable: the same inputs give the same bytes, whatever order the final
/// state or the rule catalogue arrive in, and they never name the host or the clock.
@Suite struct DeterminismTests {
    @Test func renderingTwiceGivesTheSameBytes() {
        #expect(Fixtures.report().markdown() == Fixtures.report().markdown())
        #expect(Fixtures.report().html() == Fixtures.report().html())
    }

    @Test func inputOrderOfStateAndCatalogueDoesNotMatter() {
        var shuffled = Fixtures.finalState
        shuffled.devices[1].models.reverse()
        for index in shuffled.devices.indices {
            for row in shuffled.devices[index].models.indices {
                shuffled.devices[index].models[row].fields.reverse()
            }
        }
        shuffled.labels.append(FinalState.LabelBinding(label: "z9", recordName: Fixtures.record))
        var texts: [String: String] = [:]
        for key in Fixtures.ruleTexts.keys.sorted().reversed() {
            texts[key] = Fixtures.ruleTexts[key]
        }
        let report = ScenarioReport(
            path: Fixtures.path, scenario: Fixtures.scenario, source: Fixtures.source,
            run: Fixtures.run, finalState: shuffled, ruleTexts: texts)
        #expect(report.markdown() == Fixtures.report().markdown())
    }

    @Test func reportsNameNoHostClockOrAbsolutePath() {
        for text in [Fixtures.report().markdown(), Fixtures.report().html()] {
            #expect(!text.contains("/tmp"))
            #expect(!text.contains("/work"))
            #expect(!text.contains("/home"))
            #expect(!text.contains("\u{1B}["), "no terminal colour")
            #expect(!text.contains("2026-"), "no date")
        }
    }

    /// A hand-built scenario (the parser lives in another target) run by the real harness
    /// twice: the reports of the two runs are identical.
    @Test func twoHarnessRunsGiveIdenticalReports() {
        let (scenario, source) = Self.firstSync
        let first = ScenarioRunner.run(scenario, source: source, options: RunOptions(engines: .bundled))
        let second = ScenarioRunner.run(scenario, source: source, options: RunOptions(engines: .bundled))
        let reportA = ScenarioReport(path: "first-sync.scenario", scenario: scenario,
                                     source: source, result: first, finalState: nil,
                                     ruleTexts: [:])
        let reportB = ScenarioReport(path: "first-sync.scenario", scenario: scenario,
                                     source: source, result: second, finalState: nil,
                                     ruleTexts: [:])
        #expect(reportA.markdown() == reportB.markdown())
        #expect(reportA.html() == reportB.html())
        #expect(reportA.diagram.messageCount > 4, "a real run talks to the cloud")
        #expect(XMLCheck.problem(reportA.html()) == nil)
        #expect(reportA.markdown().contains("▶ 0s line 4: phone: insert Note n1 title=#34;A#34;"))
        let junit = JUnitReport.xml(for: [(path: "first-sync.scenario", result: first)])
        #expect(XMLCheck.problem(junit) == nil)
        #expect(junit.contains("tests=\"1\""))
    }

    static var firstSync: (ScenarioFile, String) {
        let source = """
        scenario "first sync"
        account alice
        device phone on alice
        phone: insert Note n1 title="A"
        settle
        expect laptop: n1 title="A"
        """
        let at = { (line: Int) in Scenario.SourceLocation(line: line, column: 1) }
        let title = Value(.string("A"), text: "\"A\"", location: at(4))
        let assignment = Assignment(key: Located("title", at: at(4)), value: title)
        var scenario = Fixtures.scenario
        scenario.header.about = []
        scenario.timeline = [
            TimelineStatement(.deviceAction(DeviceActionStatement(
                device: Located("phone", at: at(4)),
                action: .insert(entity: Located("Note", at: at(4)), label: Located("n1", at: at(4)),
                                values: [assignment]),
                location: at(4))), location: at(4)),
            TimelineStatement(.settle, location: at(5)),
            TimelineStatement(.expectation(Expectation(
                .values(.device(Located("laptop", at: at(6))), label: Located("n1", at: at(6)),
                        values: [assignment]), location: at(6))), location: at(6)),
        ]
        return (scenario, source)
    }
}
