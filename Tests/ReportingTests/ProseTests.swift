import Reporting
import Testing

/// Prose from the rule catalogue and `about` lines keeps its backtick code spans; the rest
/// of it reads literally.
@Suite struct ProseTests {
    @Test func markdownProse() {
        #expect(MarkdownText.prose("`hasDownloadedOnce` is *true*")
            == "`hasDownloadedOnce` is \\*true\\*")
        #expect(MarkdownText.prose("- a `x|y` and ` alone") == "\\- a `x\\|y` and \\` alone")
        #expect(MarkdownText.prose("1. `a`") == "1\\. `a`")
    }

    @Test func reportsShowCatalogueCodeAsCode() {
        var texts = Fixtures.ruleTexts
        texts["DL-1"] = "Pages keep `moreComing` & <tokens>."
        let report = ScenarioReport(path: Fixtures.path, scenario: Fixtures.scenario,
                                    source: Fixtures.source, run: Fixtures.run,
                                    finalState: nil, ruleTexts: texts)
        #expect(report.markdown().contains("| Pages keep `moreComing` \\& \\<tokens\\>. |"))
        #expect(report.html().contains(
            "<td>Pages keep <code>moreComing</code> &amp; &lt;tokens&gt;.</td>"))
    }
}
