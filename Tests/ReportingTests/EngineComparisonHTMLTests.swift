import Engines
import SyncContract
@testable import Reporting
import Testing

/// The comparison's HTML with every bundled engine as a column, read in a 1400-px
/// window: one column per engine in every table, columns no narrower than
/// `minimumEngineWidth` (the table scrolls sideways before it squeezes them), each model of
/// a final state on a line of its own, rule IDs linked to their engine's catalogue and
/// never broken across lines, each engine's diagram folded.
@Suite struct EngineComparisonHTMLTests {
    static let engines = EngineRegistry.bundled.names

    static func comparison(links: [String: CatalogueLinks] = [:]) -> EngineComparison {
        let columns = engines.map { engine in
            EngineComparison.Column(
                engine: engine, report: Fixtures.report(), judged: true, weaknessIDs: ["NEW-1"])
        }
        var comparison = EngineComparison(
            path: Fixtures.path, scenario: Fixtures.scenario, source: Fixtures.source, columns: columns)
        comparison.catalogueLinks = links
        return comparison
    }

    @Test func everyTableHasOneColumnPerEngineInOrder() {
        let comparison = Self.comparison()
        let html = comparison.html()
        #expect(XMLCheck.problem(html) == nil)
        let header = "<tr><th></th>" + Self.engines.map { "<th>\($0)</th>" }.joined() + "</tr>"
        let tables = [comparison.stateRows, comparison.expectationRows, comparison.summaryRows]
            .filter { !$0.isEmpty }.count
        #expect(tables >= 2)
        #expect(html.components(separatedBy: header).count - 1 == tables, "one header per table")
        for engine in Self.engines {
            #expect(html.contains("<details class=\"timeline\" id=\"timeline-\(engine)\">"
                + "<summary>Timeline on \(engine): "))
        }
        #expect(!html.contains("<details class=\"timeline\" open"), "every diagram starts folded")
    }

    @Test func theBundledEnginesFitA1400PixelWindowAndMoreScroll() {
        // 1400 px less the page's padding (2 × 24 px), within main's 1360-px maximum.
        let content = min(1360, 1400 - 48)
        let least = EngineComparison.minimumTableWidth(engines: Self.engines.count)
        #expect(least <= content, "\(Self.engines.count) engines need \(least) px of \(content)")
        let column = (content - EngineComparison.labelWidth) / Self.engines.count
        #expect(column >= EngineComparison.minimumEngineWidth && column >= 180,
            "an engine's column is \(column) px")
        let html = Self.comparison().html()
        #expect(html.contains("<div class=\"wide\"><table class=\"compare\" style=\"min-width: \(least)px\">"))
        #expect(html.contains(".wide { overflow-x: auto; }"))
        #expect(html.contains("table.compare th:first-child { width: \(EngineComparison.labelWidth)px; }"))
        // Eight engines do not fit: their table is wider than the window and scrolls.
        #expect(EngineComparison.minimumTableWidth(engines: 8) > content)
    }

    @Test func eachModelOfAFinalStateIsALineOfItsOwn() throws {
        let comparison = Self.comparison()
        let row = try #require(comparison.stateRows.first { $0.items.contains { $0.count > 1 } },
            "the fixture's final state has a device with several models")
        let items = row.items[0]
        #expect(row.cells[0] == items.joined(separator: "; "))
        let html = comparison.html()
        let cell = "<td>" + items.map { "<span class=\"item\">\(XMLText.escape($0))</span>" }.joined() + "</td>"
        #expect(html.contains(cell))
        #expect(html.contains("table.compare .item { display: block; }"))
    }

    @Test func ruleIDsLinkToTheirEnginesCatalogueAndDoNotBreak() {
        let sds = CatalogueLinks(page: "../../docs/RULES.md", anchors: ["SYNC-1": "sync--how"])
        let naive = CatalogueLinks(page: "../../docs/NAIVE.md", anchors: ["SYNC-1": "naive--what"])
        let html = Self.comparison(links: ["sds": sds, "naive": naive]).html()
        #expect(html.contains("<a class=\"rule\" href=\"../../docs/RULES.md#sync--how\">SYNC-1</a>"))
        #expect(html.contains("<a class=\"rule\" href=\"../../docs/NAIVE.md#naive--what\">SYNC-1</a>"))
        #expect(html.contains("a.rule, .rid { white-space: nowrap; }"))
        #expect(html.contains("<span class=\"rid\">HDO-2</span>"), "an unlinked ID stays whole")
        // The diagrams link to the catalogue too, never to rows this page does not have.
        #expect(html.contains("<a href=\"../../docs/RULES.md#sync--how\" xlink:href=\"../../docs/RULES.md#sync--how\">"))
        #expect(!html.contains("href=\"#rule-"), "a link to a rules table the comparison has not")
        // An engine without a catalogue page (outbox here) shows plain IDs.
        #expect(!html.contains("<a href=\"\" "))
    }

    @Test func markdownLinksEveryListedRuleAndLeavesTheRestPlain() {
        let sds = CatalogueLinks(page: "docs/RULES.md", anchors: ["SYNC-1": "sync--how"])
        let markdown = Self.comparison(links: ["sds": sds]).markdown()
        #expect(markdown.contains("[SYNC-1](docs/RULES.md#sync--how)"))
        #expect(!markdown.contains("[HDO-2]("), "HDO-2 is not in the given catalogue")
    }
}

@Suite struct CompareCatalogueNoteTests {
    @Test func aMissingCatalogueSaysWhereToReadIt() {
        var comparison = EngineComparisonHTMLTests.comparison()
        #expect(!comparison.html().contains("<p class=\"catalogue-note\">"), "nothing missing")
        comparison.missingCatalogues = [(engine: "naive", page: "docs/NAIVE.md")]
        let html = comparison.html()
        #expect(html.contains("<p class=\"catalogue-note\">Rule IDs without a link"))
        #expect(html.contains(
            "<code>synclab rules --engine naive</code> (<code>docs/NAIVE.md</code>)"))
        #expect(comparison.markdown().contains("`synclab rules --engine naive` (`docs/NAIVE.md`)"))
    }

    @Test func ruleIDsInAnyCellStayWhole() {
        #expect(RuleID.unbrokenHTML("fired OBX-12, x-y & SYNC-2")
            == "fired <span class=\"rid\">OBX-12</span>, x-y &amp; "
                + "<span class=\"rid\">SYNC-2</span>")
        #expect(HTMLReport.unbrokenCode("expect phone: fired OBX-12")
            == "<code>expect phone: fired <span class=\"rid\">OBX-12</span></code>",
            "a report's expectations too")
    }
}

/// GitHub's anchors of a catalogue page's headings, and which heading lists each rule.
@Suite struct CatalogueLinksTests {
    static let page = """
        - **NOT-1** listed before any heading
        # The catalogue of the `naive` engine (seed 004)
        ## NAIVE — what the engine does
        - **NAIVE-1** Each model is one record.
          - **Choice** not a rule: indented
        ```
        ## NAIVE — inside a fence
        - **FENCED-1** no
        ```
        ## NAIVE-D — the literal code (the `naive-literal` variant)
        - **NAIVE-15** `CKRecord.ID(recordName:)` names no zone.
        ## States (`expect DEVICE: state …`) ##
        ## Notes
        ## Notes
        - **NAIVE-16** under the second Notes
        ## See [the format](FORMAT.md)
        """

    @Test func headingsGetGitHubsAnchors() {
        #expect(CatalogueLinks.headingAnchors(in: Self.page) == [
            "the-catalogue-of-the-naive-engine-seed-004",
            "naive--what-the-engine-does",
            "naive-d--the-literal-code-the-naive-literal-variant",
            "states-expect-device-state-",
            "notes", "notes-1",
            "see-the-format",
        ])
        #expect(CatalogueLinks.slug("SYNC — how a synchronization runs") == "sync--how-a-synchronization-runs")
        #expect(CatalogueLinks.slug("Ärger_mit 2 Wörtern") == "ärger_mit-2-wörtern")
    }

    @Test func eachRuleLinksToTheHeadingThatListsIt() {
        let links = CatalogueLinks(page: "../docs/NAIVE.md", markdown: Self.page)
        #expect(links.link("NAIVE-1") == "../docs/NAIVE.md#naive--what-the-engine-does")
        #expect(links.link("NAIVE-15") == "../docs/NAIVE.md#naive-d--the-literal-code-the-naive-literal-variant")
        #expect(links.link("NAIVE-16") == "../docs/NAIVE.md#notes-1")
        #expect(links.link("NOT-1") == nil, "no heading above it")
        #expect(links.link("FENCED-1") == nil, "inside a code fence")
        #expect(links.link("Choice") == nil, "an indented entry is no rule")
        #expect(links.link("NAIVE-99") == nil)
    }
}
