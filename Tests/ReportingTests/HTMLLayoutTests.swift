@testable import Reporting
import Testing

/// A person reading an HTML report must reach every lifeline (the cloud included) and read
/// pass or fail without an emoji font: the diagram fits the page's column while it can,
/// scrolls under a sticky row of names when it cannot, and badges are words.
@Suite struct HTMLLayoutTests {
    /// Three devices and the cloud, with labels and notes long enough that, sized by their
    /// text alone, the lifelines would be the widest distance apart.
    static func diagram(devices: [String]) -> SequenceDiagram {
        let long = "modifyRecords saves=[n1, n2, n3, n4, n5] deletes=[n6] policy=changedKeys"
        var steps: [SequenceStep] = []
        for device in devices {
            steps.append(.message(SequenceMessage(
                from: device, to: "cloud", style: .request, sentTime: 0, time: 100_000,
                text: "r1 " + long)))
            steps.append(.note(SequenceNote(
                over: [device], kind: .rule, time: 200_000,
                lines: [NoteLine(rules: ["SYNC-1"], text: "change.recorded model=n1 "
                    + "change=insert and a few more words to make it long")])))
        }
        return SequenceDiagram(participants: devices + ["cloud"], steps: steps)
    }

    static func attribute(_ name: String, ofFirst tag: String, in text: String) -> String? {
        guard let start = text.range(of: tag) else { return nil }
        let rest = text[start.upperBound...]
        guard let open = rest.range(of: " \(name)=\"") else { return nil }
        let value = rest[open.upperBound...]
        return value.firstIndex(of: "\"").map { String(value[..<$0]) }
    }

    @Test func threeDevicesAndTheCloudFitThePageColumn() throws {
        let writer = SVGSequenceWriter(
            diagram: Self.diagram(devices: ["phone", "laptop", "tablet"]))
        let svg = writer.render()
        let width = try #require(Self.attribute("width", ofFirst: "<svg", in: svg))
        let viewBox = try #require(Self.attribute("viewBox", ofFirst: "<svg", in: svg))
        let pixels = try #require(Int(width))
        #expect(pixels <= SVGSequenceWriter.fitWidth, "the diagram is \(pixels) px wide")
        #expect(pixels + 48 + 2 <= 1200, "wider than the page's 1200-px column")
        #expect(viewBox.hasPrefix("0 0 \(width) "), "the viewBox is the drawing's size")
        let cloud = writer.x("cloud")
        #expect(cloud + writer.gap / 2 <= pixels, "the cloud's lifeline is inside the drawing")
        #expect(svg.contains(">cloud</text>") && svg.contains(">tablet</text>"))
    }

    @Test func fiveParticipantsStillFitAndSixScrollAtTheNarrowestSpacing() {
        let five = SVGSequenceWriter(diagram: Self.diagram(devices: ["a", "b", "c", "d"]))
        #expect(five.width <= SVGSequenceWriter.fitWidth)
        let seven = SVGSequenceWriter(
            diagram: Self.diagram(devices: ["a", "b", "c", "d", "e", "f"]))
        #expect(seven.gap == SVGSequenceWriter.minimumGap)
        #expect(seven.width == 2 * SVGSequenceWriter.margin + 7 * SVGSequenceWriter.minimumGap)
    }

    @Test func aNarrowDiagramKeepsItsSpacing() {
        let writer = SVGSequenceWriter(diagram: SequenceDiagram(
            participants: ["phone", "cloud"], steps: []))
        #expect(writer.gap == SVGSequenceWriter.minimumGap)
    }

    @Test func theNamesStayInViewWhileTheDiagramScrolls() throws {
        let html = Fixtures.report().html()
        #expect(html.contains(".diagram { overflow: auto; max-height: 85vh;"))
        #expect(html.contains(".diagram .names { position: sticky; top: 0;"))
        let box = try #require(html.range(of: "<div class=\"diagram\" tabindex=\"0\">\n"
            + "<div class=\"names\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
            + "class=\"sd sd-names\""))
        let header = html[box.upperBound...]
        let end = try #require(header.range(of: "</svg>"))
        let names = header[..<end.lowerBound]
        for participant in ["phone", "laptop", "cloud"] {
            #expect(names.contains(">\(participant)</text>"), "\(participant) in the header")
        }
        #expect(XMLCheck.problem(html) == nil)
    }

    @Test func aLongNoteLineWrapsInsteadOfBeingCut() {
        let writer = SVGSequenceWriter(diagram: Self.diagram(devices: ["phone", "laptop",
                                                                       "tablet"]))
        let svg = writer.render()
        #expect(svg.contains("make it long</text>"), "nothing of the note is cut")
        let wrapped = SVGSequenceWriter.wrap("alpha beta gamma delta", first: 11, rest: 8,
                                             rows: 3)
        #expect(wrapped.rows == ["alpha beta", "gamma", "delta"])
        #expect(!wrapped.cut)
        let cut = SVGSequenceWriter.wrap("alpha beta gamma delta epsilon", first: 5, rest: 5,
                                         rows: 2)
        #expect(cut.rows == ["alpha", "beta…"])
        #expect(cut.cut)
        #expect(SVGSequenceWriter.wrap("abcdefghij", first: 4, rest: 4, rows: 3).rows
            == ["abcd", "efgh", "ij"])
    }

    @Test func aLabelLongerThanItsArrowWrapsOntoASecondRow() {
        var diagram = Self.diagram(devices: ["phone", "laptop", "tablet"])
        diagram.steps.append(.message(SequenceMessage(
            from: "tablet", to: "cloud", style: .request, sentTime: 0, time: 100_000,
            text: "r2 modifyRecords saves=[b1] policy=changedKeys")))
        let svg = SVGSequenceWriter(diagram: diagram).render()
        let group = svg.split(separator: "\n").last { $0.contains("r2 modifyRecords") }
        let rows = group.map { $0.components(separatedBy: "<text ").count - 1 }
        #expect(rows == 2, "\(group ?? "no arrow")")
        #expect(group?.contains("policy=changedKeys</text>") == true, "nothing is cut")
        #expect(group?.contains("<title>") == false, "no tooltip when nothing is cut")
    }

    @Test func passAndFailAreWordsOnColouredBadges() {
        let html = Fixtures.report().html()
        #expect(html.contains("<span class=\"badge fail\">FAIL</span> · 1 of 2"))
        #expect(html.contains("<td><span class=\"badge pass\">PASS</span></td>"))
        #expect(html.contains(".badge.pass { background: #dafbe1; color: #116329;"))
        #expect(html.contains(".badge.fail { background: #ffebe9; color: #a40e26;"))
        #expect(!html.contains("✅") && !html.contains("❌"), "no emoji an old font cannot draw")
        let index = ReportIndexTests.sampleIndex.html()
        #expect(index.contains("<td><span class=\"badge pass\">PASS</span></td>"))
        #expect(index.contains("<td><span class=\"badge fail\">FAIL</span></td>"))
        #expect(!index.contains("✅") && !index.contains("❌"))
    }

    @Test func markdownSaysPassOrFailInWords() {
        let markdown = Fixtures.report().markdown()
        #expect(markdown.contains(" | ✅ pass | "))
        #expect(markdown.contains(" | ❌ fail | "))
        #expect(markdown.contains(": FAIL 2.5s line 20: expect converged"))
        #expect(!markdown.contains("| ✅ |") && !markdown.contains("| ❌ |"))
    }
}
