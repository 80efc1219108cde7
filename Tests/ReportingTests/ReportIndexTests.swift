import Reporting
import Testing

/// The index groups reports by folder, badges each, and links them with safe targets.
@Suite struct ReportIndexTests {
    static let sampleIndex = ReportIndex(entries: [
        entry("tour/02-b.md", "Second stop", passed: false, held: 3, of: 4),
        entry("rules/SYNC-4-local-keys-win.md", "Local keys win", passed: true, held: 5, of: 5),
        entry("tour/01-a.md", "First stop", passed: true, held: 9, of: 9),
        entry("loose (draft).md", "A *loose* | one", passed: false, held: 0, of: 2,
              runtimeFailure: true),
    ])

    static func entry(
        _ report: String, _ title: String, passed: Bool, held: Int, of total: Int,
        runtimeFailure: Bool = false
    ) -> ReportIndex.Entry {
        let scenario = "Scenarios/" + report.replacingOccurrences(of: ".md", with: ".scenario")
        return ReportIndex.Entry(
            reportPath: report, scenarioPath: scenario, title: title, passed: passed,
            held: held, expectations: total, runtimeFailure: runtimeFailure)
    }

    @Test func groupsByFolderTopLevelFirstAndSortsWithinAFolder() {
        let groups = Self.sampleIndex.groups
        #expect(groups.map(\.folder) == ["", "rules", "tour"])
        #expect(groups[2].entries.map(\.reportPath) == ["tour/01-a.md", "tour/02-b.md"])
    }

    @Test func markdownShowsABadgePerReportAndTotals() {
        let text = Self.sampleIndex.markdown()
        #expect(text.contains("4 scenarios: 2 passed, 2 failed."))
        #expect(text.contains("| ✅ pass | [First stop](tour/01-a.md) | 9 of 9 |"))
        #expect(text.contains("| ❌ fail | [Second stop](tour/02-b.md) | 3 of 4 |"))
        #expect(text.contains("0 of 2, runtime failure"))
        #expect(text.contains("## Top level"))
        let tour = text.range(of: "## tour")!.lowerBound
        let rules = text.range(of: "## rules")!.lowerBound
        #expect(rules < tour)
    }

    @Test func linkTargetsAndTitlesAreEscaped() {
        let text = Self.sampleIndex.markdown()
        #expect(text.contains("[A \\*loose\\* \\| one](loose%20%28draft%29.md)"))
        #expect(ReportIndex.linkTarget("tour/é x.md") == "tour/%C3%A9%20x.md")
    }

    @Test func htmlIndexIsWellFormedAndBadged() {
        let html = Self.sampleIndex.html()
        #expect(XMLCheck.problem(html) == nil)
        #expect(html.contains("<span class=\"badge pass\">PASS</span>"))
        #expect(html.contains("<a href=\"loose%20%28draft%29.md\">A *loose* | one</a>"))
    }

    @Test func aReportGivesItsOwnEntry() {
        let entry = Fixtures.report().indexEntry(reportPath: "fixtures/hand-built.md")
        #expect(entry.folder == "fixtures")
        #expect(!entry.passed)
        #expect(entry.held == 1 && entry.expectations == 2)
        #expect(entry.scenarioPath == Fixtures.path)
    }
}
