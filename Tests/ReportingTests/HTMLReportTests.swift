import Reporting
import Testing

/// The HTML report is one self-contained, well-formed page whose diagram links every rule
/// it names to that rule's text, and whose text can never break out of its markup.
@Suite struct HTMLReportTests {
    static let html = Fixtures.report().html()

    @Test func isWellFormed() {
        #expect(XMLCheck.problem(Self.html) == nil)
    }

    @Test func loadsNothingFromOutside() {
        #expect(!Self.html.contains("<script"))
        #expect(!Self.html.contains("<link"))
        #expect(!Self.html.contains("@import"))
        #expect(!Self.html.contains("url(http"))
        let external = XMLCheck.attributeValues("href", in: Self.html)
            + XMLCheck.attributeValues("src", in: Self.html)
        #expect(external.allSatisfy { $0.hasPrefix("#") }, "\(external)")
    }

    @Test func drawsTheDiagramAsInlineSVG() {
        #expect(Self.html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(Self.html.contains("class=\"lifeline\""))
        #expect(Self.html.contains(">0s→0.1s r1 accountStatus</text>"))
        #expect(Self.html.contains("marker-end=\"url(#sd-open)\""), "the push")
        #expect(Self.html.contains("marker-end=\"url(#sd-cross)\""), "the lost answer")
        #expect(Self.html.contains("class=\"band trigger\""))
        #expect(Self.html.contains("class=\"band fault\""))
    }

    @Test func everyRuleInTheTimelineLinksToItsText() {
        let links = Set(XMLCheck.attributeValues("href", in: Self.html))
        let anchors = Set(XMLCheck.attributeValues("id", in: Self.html).map { "#" + $0 })
        #expect(links == ["#rule-SYNC-1", "#rule-HDO-2", "#rule-DL-1", "#rule-NEW-1"])
        #expect(links.isSubset(of: anchors), "\(links.subtracting(anchors))")
        #expect(Self.html.contains("<tr id=\"rule-SYNC-1\"><td><code>SYNC-1</code></td><td>1</td>"
            + "<td>phone ×1</td><td>Saves of the observed store"))
        #expect(Self.html.contains("<tr id=\"rule-NEW-1\"><td><code>NEW-1</code></td><td>1</td>"
            + "<td>laptop ×1</td><td>—</td></tr>"), "a rule the catalogue lacks shows its ID")
    }

    @Test func escapesWhatTheAuthorWrote() {
        #expect(Self.html.contains("<title>Fixture: a note | reaches *the* laptop</title>"))
        #expect(Self.html.contains("&lt;b&gt;not&lt;/b&gt; from the engine &amp; friends."))
        #expect(Self.html.contains("note=x&lt;y &amp; z; #1"))
        #expect(Self.html.contains("<code>&quot;milk | &lt;b&gt;&quot;</code>"))
        #expect(!Self.html.contains("<b>"))
    }

    @Test func hostileLabelsStayTextInTheSVG() {
        let hostile = "</text><script>alert('x')</script>&amp;\"\u{0}\u{FFFF}"
        let events = [Fixtures.event(0, "phone", "decided",
                                     [Fixtures.field("why", .string(hostile))],
                                     rules: ["R-1\"><x"])]
        let run = ReportedRun(seed: 1, events: events, expectations: [], endTime: .zero)
        let report = ScenarioReport(
            path: "a&b.scenario", scenario: Fixtures.scenario, source: "", run: run,
            finalState: nil, ruleTexts: ["R-1\"><x": "<i>text</i>"])
        let html = report.html()
        #expect(XMLCheck.problem(html) == nil)
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<i>"))
        #expect(html.contains(
            "&lt;/text&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;"))
        #expect(html.contains("href=\"#rule-R-1___x\""))
        #expect(html.contains("<tr id=\"rule-R-1___x\">"))
    }

    @Test func longLabelsAreCutWithTheFullTextAsATooltip() {
        let long = String(repeating: "abcdefghij", count: 80)
        let events = [
            Fixtures.event(0, "phone", "request.sent", [Fixtures.field("request", "r1"),
                Fixtures.field("kind", .string(long))]),
            Fixtures.event(1, "cloud", "request.handled", [Fixtures.field("device", "phone"),
                Fixtures.field("request", "r1"), Fixtures.field("kind", .string(long))]),
        ]
        let run = ReportedRun(seed: 1, events: events, expectations: [], endTime: .zero)
        let report = ScenarioReport(path: "x.scenario", scenario: Fixtures.scenario, source: "",
                                    run: run, finalState: nil, ruleTexts: [:])
        let html = report.html()
        #expect(html.contains("<title>0s→0.000001s r1 \(long)</title>"))
        #expect(html.contains("…</text>"))
        #expect(XMLCheck.problem(html) == nil)
    }
}
