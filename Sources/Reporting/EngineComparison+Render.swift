/// The renderings of a comparison: terminal text, Markdown (with a Mermaid diagram per
/// engine), self-contained HTML (engines as columns) and JSON.
extension EngineComparison {
    private static let marker = "≠"

    /// A plain-text rendering for a terminal: one block per row, one line per engine, `≠`
    /// before a row where the engines disagree.
    public func terminal() -> String {
        var out: [String] = []
        let verdict = passed ? "PASS" : "FAIL"
        out.append("\(verdict) \(path): \(title)")
        out.append("  engines: " + engines.joined(separator: ", "))
        let width = engines.map(\.count).max() ?? 0
        func section(_ name: String, _ rows: [Row]) {
            guard !rows.isEmpty else { return }
            out.append("  \(name)")
            for row in rows {
                out.append("  \(row.differs ? Self.marker : " ") \(row.label)")
                for (engine, cell) in zip(engines, row.cells) {
                    let pad = String(repeating: " ", count: width - engine.count)
                    out.append("      \(engine)\(pad)  \(cell)")
                }
            }
        }
        for line in notRun { out.append("  not run on \(line)") }
        section("final state", stateRows)
        section("expectations", expectationRows)
        section("runs", summaryRows)
        let disagree = differingRows.map(\.label)
        out.append("  engines disagree on: "
            + (disagree.isEmpty ? "nothing" : disagree.joined(separator: ", ")))
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: - Markdown

    /// GitHub-flavoured Markdown: the side-by-side tables (engines as columns, a row where
    /// they disagree marked `≠` and its cells in bold), then each engine's sequence diagram.
    public func markdown() -> String {
        let m = MarkdownText.self
        var out: [String] = []
        out.append("# \(m.inline(title))")
        out.append("")
        out.append((passed ? "✅ **every engine met its own expectations**"
            : "❌ **an engine missed its own expectations**")
            + " · engines " + engines.map { m.code($0) }.joined(separator: ", "))
        out.append("")
        out.append("Scenario \(m.code(path)); rerun with "
            + m.code("\(command) compare \(path)") + ".")
        if !about.isEmpty {
            out += ["", m.prose(about.joined(separator: " "))]
        }
        func table(_ name: String, _ rows: [Row]) {
            guard !rows.isEmpty else { return }
            out += ["", "## \(name)", ""]
            out.append("| | " + engines.map { m.inline($0) }.joined(separator: " | ") + " |")
            out.append("|---|" + engines.map { _ in "---|" }.joined())
            for row in rows {
                let mark = row.differs ? "\(Self.marker) " : ""
                let cells = zip(engines, row.cells).map { engine, cell in
                    let text = row.listsRules
                        ? Self.linkedRules(cell, catalogueLinks[engine], markdown: true)
                        : m.inline(cell)
                    return row.differs && cell != Row.notApplicable ? "**\(text)**" : text
                }
                out.append("| \(mark)\(m.inline(row.label)) | " + cells.joined(separator: " | ")
                    + " |")
            }
        }
        if !notRun.isEmpty {
            out += ["", "Not run on: " + notRun.map { m.inline($0) }.joined(separator: "; ") + "."]
        }
        table("Final state", stateRows)
        table("Expectations", expectationRows)
        table("Runs", summaryRows)
        out += ["",
            "`≠` marks a row where the engines disagree; `—` an expectation of another engine."]
        if let note = catalogueNote(markdown: true) { out += ["", note] }
        for column in columns {
            out += ["", "## Timeline on \(m.inline(column.engine))", ""]
            out.append("\(column.report.diagram.messageCount) arrows, "
                + "\(ReportTime.text(microseconds: column.report.endTime)) simulated.")
            out += ["", "```mermaid"]
            out += MermaidWriter(diagram: column.report.diagram,
                limits: column.report.limits).lines()
            out.append("```")
        }
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: - HTML

    /// The row labels' column, in pixels.
    static let labelWidth = 180
    /// The narrowest an engine's column gets: below it the table scrolls sideways instead
    /// (six engines fit a 1400-px window: 180 + 6 × 180 = 1260 of its 1352 px).
    static let minimumEngineWidth = 180

    /// The table's least width for `engines` columns of engines.
    static func minimumTableWidth(engines: Int) -> Int {
        labelWidth + engines * minimumEngineWidth
    }

    static let htmlStyle = [
        "main { max-width: 1360px; }",
        ".wide { overflow-x: auto; }",
        "table.compare { table-layout: fixed; width: 100%; }",
        "table.compare td, table.compare th { vertical-align: top; overflow-wrap: anywhere; }",
        "table.compare th:first-child { width: \(labelWidth)px; }",
        "table.compare .item { display: block; }",
        "a.rule, .rid { white-space: nowrap; }",
        "details.timeline { margin: 8px 0; }",
        "details.timeline > summary { cursor: pointer; font-weight: 600; font-size: 1.1em; }",
        ".catalogue-note { background: #fff8c5; padding: 6px 10px; }",
        "tr.differs td { background: #fff8c5; }",
        "tr.differs td:first-child::before { content: \"≠ \"; "
            + "font-weight: bold; color: #9a6700; }",
        "td.na { color: #8c959f; }",
    ]

    /// A self-contained page: engines as columns, rows where they disagree tinted and
    /// marked `≠`, then each engine's sequence diagram as inline SVG.
    public func html() -> String {
        let e = { (text: String) in XMLText.escape(text) }
        var body: [String] = []
        body += ["<header>", "<h1>\(e(title))</h1>"]
        body.append("<p>" + HTMLPage.badge(passed: passed) + " "
            + (passed
                ? "every engine met its own expectations" : "an engine missed its own expectations")
            + " · engines " + engines.map { HTMLPage.code($0) }.joined(separator: ", ") + "</p>")
        body.append("<p>Scenario \(HTMLPage.code(path)); rerun with "
            + HTMLPage.code("\(command) compare \(path)") + ".</p>")
        if !about.isEmpty {
            body.append("<p>" + HTMLPage.prose(about.joined(separator: " ")) + "</p>")
        }
        if !notRun.isEmpty {
            body.append("<p>Not run on: " + notRun.map { e($0) }.joined(separator: "; ") + ".</p>")
        }
        body.append("</header>")
        func table(_ name: String, _ rows: [Row]) {
            guard !rows.isEmpty else { return }
            body += ["<section>", "<h2>\(e(name))</h2>"]
            var html = "<div class=\"wide\"><table class=\"compare\" style=\"min-width: "
                + "\(Self.minimumTableWidth(engines: engines.count))px\"><thead><tr><th></th>"
                + engines.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>"
            for row in rows {
                html += row.differs ? "<tr class=\"differs\">" : "<tr>"
                html += "<td>\(RuleID.unbrokenHTML(row.label))</td>"
                html += zip(engines, row.cells).enumerated().map { index, pair in
                    let (engine, cell) = pair
                    if cell == Row.notApplicable { return "<td class=\"na\">\(e(cell))</td>" }
                    if index < row.items.count, row.items[index].count > 1 {
                        return "<td>" + row.items[index].map {
                            "<span class=\"item\">\(RuleID.unbrokenHTML($0))</span>"
                        }.joined() + "</td>"
                    }
                    let text = row.listsRules
                        ? Self.linkedRules(cell, catalogueLinks[engine], markdown: false)
                        : RuleID.unbrokenHTML(cell)
                    return "<td>\(text)</td>"
                }.joined()
                html += "</tr>"
            }
            body += [html + "</tbody></table></div>", "</section>"]
        }
        table("Final state", stateRows)
        table("Expectations", expectationRows)
        table("Runs", summaryRows)
        body.append("<p class=\"legend\">A tinted row marked ≠ is where the engines disagree; "
            + "— is an expectation of another engine.</p>")
        if let note = catalogueNote(markdown: false) {
            body.append("<p class=\"catalogue-note\">\(note)</p>")
        }
        appendTimelines(to: &body)
        return HTMLPage.document(title: title, body: body, extraStyle: Self.htmlStyle)
    }

    /// The page's last section: each engine's sequence diagram as inline SVG, folded.
    private func appendTimelines(to body: inout [String]) {
        let e = { (text: String) in XMLText.escape(text) }
        body += ["<section id=\"timelines\">", "<h2>Timelines</h2>",
                 "<p class=\"legend\">One diagram per engine; open the ones to read.</p>"]
        for column in columns {
            var writer = SVGSequenceWriter(diagram: column.report.diagram)
            // Several engines share the page: their IDs link to their own catalogues.
            writer.ruleLinks = catalogueLinks[column.engine]
                ?? CatalogueLinks(page: "", anchors: [:])
            writer.markerPrefix = RuleID.anchor(column.engine) + "-"
            let summary = "Timeline on \(e(column.engine)): "
                + "\(column.report.diagram.messageCount) arrows, "
                + "\(ReportTime.text(microseconds: column.report.endTime)) simulated"
            body.append("<details class=\"timeline\" id=\"timeline-\(e(column.engine))\">"
                + "<summary>\(summary)</summary>")
            body.append("<div class=\"diagram\" tabindex=\"0\">")
            body += ["<div class=\"names\">", writer.header(), "</div>"]
            body.append(writer.render())
            body += ["</div>", "</details>"]
        }
        body.append("</section>")
    }

    /// Where to read the rules of engines whose catalogue page was not found; nil when
    /// every page was.
    func catalogueNote(markdown: Bool) -> String? {
        guard !missingCatalogues.isEmpty else { return nil }
        let code = { (text: String) in markdown ? MarkdownText.code(text) : HTMLPage.code(text) }
        let parts = missingCatalogues.map { entry in
            "\(code("\(command) rules --engine \(entry.engine)")) (\(code(entry.page)))"
        }
        return "Rule IDs without a link: their catalogue page was not found from the folder "
            + "\(command) ran in. Read a catalogue with " + parts.joined(separator: ", ")
            + ", or in the SyncLab repository."
    }

    /// A cell listing rule IDs (`SYNC-2, SYNC-4`; `none`) with each ID a link to its
    /// section of the engine's catalogue page, when the page lists it; an ID never breaks
    /// at its hyphen.
    static func linkedRules(_ cell: String, _ links: CatalogueLinks?, markdown: Bool) -> String {
        let m = MarkdownText.self
        guard cell != "none", cell != Row.notApplicable else {
            return markdown ? m.inline(cell) : XMLText.escape(cell)
        }
        return cell.split(separator: ", ").map(String.init).map { id in
            let text = markdown ? m.inline(id) : XMLText.escape(id)
            guard let links, let link = links.link(id) else {
                return markdown ? text : "<span class=\"rid\">\(text)</span>"
            }
            return markdown ? "[\(text)](\(link))"
                : "<a class=\"rule\" href=\"\(XMLText.escape(link, attribute: true))\">\(text)</a>"
        }.joined(separator: ", ")
    }

    // MARK: - JSON

    /// A JSON object; keys in a fixed order, so the bytes are stable.
    public func json() -> String {
        func rows(_ rows: [Row]) -> String {
            "[" + rows.map { row in
                "{\"label\":\(JSONText.string(row.label)),\"differs\":\(row.differs),\"cells\":{"
                    + zip(engines, row.cells).map {
                        "\(JSONText.string($0)):\(JSONText.string($1))"
                    }
                        .joined(separator: ",") + "}}"
            }.joined(separator: ",") + "]"
        }
        let columnsJSON = columns.map { column in
            "{\"engine\":\(JSONText.string(column.engine)),\"judged\":\(column.judged),"
                + "\"passed\":\(column.report.passed),"
                + "\"held\":\(column.report.heldCount),"
                + "\"expectations\":\(column.report.expectations.count),"
                + "\"rulesFired\":\(JSONText.array(column.rulesFired)),"
                + "\"weaknessesFired\":\(JSONText.array(column.weaknessesFired)),"
                + "\"leftovers\":\(JSONText.array(column.report.leftovers))}"
        }.joined(separator: ",")
        return "{\"path\":\(JSONText.string(path)),\"title\":\(JSONText.string(title)),"
            + "\"passed\":\(passed),\"engines\":\(JSONText.array(engines)),"
            + "\"runs\":[\(columnsJSON)],"
            + "\"notRun\":\(JSONText.array(notRun)),"
            + "\"finalState\":\(rows(stateRows)),\"expectations\":\(rows(expectationRows)),"
            + "\"summary\":\(rows(summaryRows))}"
    }
}

/// JSON string escaping for the comparison's output.
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func array(_ items: [String]) -> String {
        "[" + items.map(string).joined(separator: ",") + "]"
    }
}
