import Engines
import Harness
import Scenario
import SyncContract
import Testing

/// The `chaos …` statements: what the tree records and what validation reports.
@Suite struct ExplorerFormatTests {
    static let setup = """
        scenario "chaos"
        entity Note {
          title: String = ""
        }
        entity Draft {
          text: String?
          sync none
        }
        account alice
        device phone on alice
        device laptop on alice
        device kiosk

        """

    @Test func everyStatementLandsInTheTree() {
        let source = Self.setup + """
            chaos workload 50 operations on Note by phone, laptop every 100ms..1s
            chaos fault offline 10% for 1s..20s
            chaos fault expire-tokens 2.5%
            chaos mix insert 40% update 40% delete 20%
            chaos heal within 30m
            """
        let chaos = ScenarioParser.parse(source: source, file: "x").scenario.chaos
        #expect(chaos.isDeclared)
        #expect(chaos.lines == [13, 14, 15, 16, 17])
        let workload = chaos.workload
        #expect(workload?.operations.value == 50)
        #expect(workload?.entities.map(\.value) == ["Note"])
        #expect(workload?.devices.map(\.value) == ["phone", "laptop"])
        #expect(workload?.interval.description == "100ms..1s")
        #expect(chaos.faults.map(\.kind.value) == [.offline, .expireTokens])
        #expect(chaos.faults.map(\.probability.description) == ["10%", "2.5%"])
        #expect(chaos.faults[0].effectiveDuration?.description == "1s..20s")
        #expect(chaos.faults[1].effectiveDuration == nil)
        #expect(chaos.effectiveMix.shares.map(\.kind) == [.insert, .update, .delete])
        #expect(chaos.effectiveHealBudget == TimeSpan(microseconds: 1_800_000_000))
    }

    @Test func defaultsWhenClausesAreLeftOut() {
        let source = Self.setup + "chaos workload 5 operations\n"
        let checked = ScenarioChecker.check(source: source, file: "x")
        #expect(checked.diagnostics.isEmpty)
        let chaos = checked.scenario.chaos
        #expect(chaos.workload?.interval == ChaosWorkload.defaultInterval)
        #expect(chaos.effectiveMix == .standard)
        #expect(chaos.effectiveHealBudget == ChaosDeclarations.maximumHealBudget)
    }

    @Test func plainScenariosDeclareNoChaos() {
        let source = Self.setup + "settle\n"
        #expect(!ScenarioParser.parse(source: source, file: "x").scenario.chaos.isDeclared)
    }

    /// A chaos line, and the diagnostic ID (and suggestion) it must produce.
    struct Case: Sendable, CustomTestStringConvertible {
        let lines: String
        let id: String
        var suggestion: String?

        var testDescription: String { "\(id): \(lines)" }
    }

    static let errors: [Case] = [
        Case(lines: "chaos workload 5 operations on Notte", id: "unknown-entity",
            suggestion: "Note"),
        Case(lines: "chaos workload 5 operations by lapotp", id: "unknown-device",
            suggestion: "laptop"),
        Case(lines: "chaos workload 5 operations by kiosk", id: "chaos-device-signed-out"),
        Case(lines: "chaos workload 5 operations on Draft", id: "chaos-entity-not-synchronized"),
        Case(lines: "chaos workload 0 operations", id: "number-too-small"),
        Case(lines: "chaos workload 200000 operations", id: "chaos-too-many-operations"),
        Case(lines: "chaos workload 5 operations on Note on Note", id: "duplicate-clause"),
        Case(lines: "chaos workload 5 operations on Note, Note", id: "duplicate-chaos-entry"),
        Case(lines: "chaos workload 5\nchaos workload 6 operations", id: "expected"),
        Case(lines: "chaos workload 5 operations\nchaos workload 6 operations",
            id: "duplicate-statement"),
        Case(lines: "chaos fault offline 5%", id: "chaos-needs-workload"),
        Case(lines: "chaos workload 5 operations\nchaos fault ofline 5%", id: "unknown-fault",
            suggestion: "offline"),
        Case(lines: "chaos workload 5 operations\nchaos fault sync 5% for 1s",
            id: "fault-takes-no-duration"),
        Case(lines: "chaos workload 5 operations\nchaos fault kill 5%\nchaos fault kill 1%",
            id: "duplicate-fault"),
        Case(lines: "chaos workload 5 operations\nchaos fault kill 150%",
            id: "invalid-percentage"),
        Case(lines: "chaos workload 5 operations\nchaos mix insert 50%", id: "invalid-chaos-mix"),
        Case(lines: "chaos workload 5 operations\nchaos mix insert 50% insert 50%",
            id: "duplicate-chaos-entry"),
        Case(lines: "chaos workload 5 operations\nchaos mix upsert 100%", id: "unknown-operation",
            suggestion: "insert"),
        Case(lines: "chaos workload 5 operations\nchaos heal within 2h",
            id: "heal-budget-out-of-range"),
        Case(lines: "chaos workload 5 operations\nchaos heal 1h", id: "expected"),
        Case(lines: "chaos wrkload 5 operations", id: "unknown-chaos-statement",
            suggestion: "workload"),
        Case(lines: "settle\nchaos workload 5 operations", id: "setup-after-timeline"),
    ]

    @Test(arguments: errors)
    func reportsTheMistake(_ example: Case) {
        let checked = ScenarioChecker.check(source: Self.setup + example.lines + "\n", file: "x")
        let ids = checked.diagnostics.map(\.id.rawValue)
        #expect(ids.contains(example.id), "\(checked.diagnostics.map(\.rendered))")
        if let suggestion = example.suggestion {
            let diagnostic = checked.diagnostics.first { $0.id.rawValue == example.id }
            #expect(diagnostic?.suggestions.contains(suggestion) == true)
        }
    }

    @Test func chaosIsAReservedWord() {
        let checked = ScenarioChecker.check(
            source: "scenario \"x\"\naccount chaos\n", file: "x")
        #expect(checked.diagnostics.map(\.id.rawValue) == ["reserved-name"])
    }
}
