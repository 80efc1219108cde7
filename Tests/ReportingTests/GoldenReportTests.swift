import Reporting
import Testing

/// The whole Markdown and HTML report of the hand-built run, as golden files: any change to
/// what a report says or how it is laid out shows up as a diff to review.
@Suite struct GoldenReportTests {
    @Test func markdownMatchesItsSnapshot() {
        Snapshot.expectMatches(Fixtures.report().markdown(), named: "hand-built.md")
    }

    @Test func htmlMatchesItsSnapshot() {
        Snapshot.expectMatches(Fixtures.report().html(), named: "hand-built.html")
    }

    @Test func indexMatchesItsSnapshot() {
        Snapshot.expectMatches(ReportIndexTests.sampleIndex.markdown(), named: "index.md")
    }
}
