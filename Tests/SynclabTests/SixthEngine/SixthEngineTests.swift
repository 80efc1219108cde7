import Engines
import Reporting
import SyncLab
import Testing

/// A sixth engine reaches every part of SyncLab through one registration: scenarios and their
/// checks, the rules it fires, a comparison beside the bundled engines, reports, and the swarm
/// explorer, whose findings are explained by its own catalogue.
@Suite struct SixthEngineTests {
    static var lab: ScenarioLab {
        var lab = ScenarioLab()
        lab.register(OutboundProfile.profile)
        return lab
    }

    static let story = """
        scenario "A note inserted on the phone"
        engines sds, outbound
        seed 1

        entity Note {
          title: String = ""
        }

        account alice
        device phone on alice
        device laptop on alice

        settle
        phone: insert Note n1 title="Groceries"
        settle
        expect cloud alice: n1 title="Groceries"
        expect [sds] laptop: n1 title="Groceries"
        expect [outbound] laptop: count Note = 0
        expect [outbound] phone: fired OUT-1
        expect [outbound] laptop: fired OUTW-1

        """

    @Test func aScenarioRunsOnItWithItsOwnRulesChecked() {
        let result = Self.lab.run(Self.story, engine: "outbound")
        #expect(result.passed, "\(result.problems.joined(separator: "\n"))")
        let unknown = Self.lab.run(
            Self.story.replacingOccurrences(of: "fired OUT-1", with: "fired OUT-9"),
            engine: "outbound")
        #expect(!unknown.passed)
        #expect(unknown.diagnostics.contains { $0.contains("OUT-9") })
    }

    @Test func aComparisonShowsItBesideTheBundledEngines() throws {
        let compared = Self.lab.compare(Self.story, file: "story.scenario")
        let comparison = try #require(compared.comparison, "\(compared.diagnostics)")
        #expect(comparison.engines == ["sds", "outbound"])
        #expect(comparison.passed)
        let page = comparison.markdown()
        #expect(page.contains("OUTW-1"))
        #expect(comparison.json().contains("\"engine\":\"outbound\""))
    }

    /// Built into its own executable, the lab names that executable where a reader is told
    /// how to run the story again: `synclab` does not know its engine.
    @Test func itsOwnExecutableIsNamedInTheRerunHints() throws {
        var lab = Self.lab
        lab.command = "outbound-lab"
        let comparison = try #require(lab.compare(Self.story, file: "story.scenario").comparison)
        #expect(comparison.markdown().contains("outbound-lab compare story.scenario"))
        #expect(comparison.html().contains("outbound-lab compare story.scenario"))
        #expect(!comparison.markdown().contains("synclab compare"))
        for column in comparison.columns {
            #expect(column.report.markdown().contains("outbound-lab run story.scenario --seed 1"))
        }
        let run = lab.run(Self.story, engine: "outbound")
        let junit = JUnitReport.xml(for: [(path: "story.scenario", result: try #require(run.run))],
            command: lab.command)
        #expect(junit.contains("value=\"outbound-lab run story.scenario --seed 1\""))
    }

    @Test func theSwarmFindsItsWeaknessWithoutBeingToldWhere() throws {
        let swarm = Self.lab.swarm(engine: "outbound", shrinkRuns: 40)
        let results = (1...6).compactMap { swarm.run(seed: UInt64($0)) }
        #expect(!results.isEmpty, "the swarm drew worlds outbound accepts")
        let broken = results.filter { !$0.violations.isEmpty }
        #expect(!broken.isEmpty, "a device never downloads, so the devices diverge")
        #expect(broken.allSatisfy { $0.outcome == .explained },
                "\(broken.filter { $0.outcome != .explained }.map(\.violations))")
        let explainers = Set(broken.flatMap(\.explainedBy))
        #expect(explainers.contains("OUTW-1"))
        #expect(explainers.isSubset(of: ["OUTW-1", "OUTW-2"]))
    }

    @Test func theBundledRegistryIsUntouched() {
        #expect(!EngineRegistry.bundled.names.contains("outbound"))
        #expect(Self.lab.engines.names.last == "outbound")
    }
}
