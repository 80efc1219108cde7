/// The overview of several comparisons: one row per story, one column per engine, each
/// cell the engine's verdict and the weaknesses (else the rules) that fired — the page a
/// person reads to choose an engine, linking each story's side-by-side page.
public struct EngineComparisonIndex: Sendable {
    public struct Entry: Sendable {
        public var comparison: EngineComparison
        /// Where the story's page is, relative to the index.
        public var link: String

        public init(comparison: EngineComparison, link: String) {
            self.comparison = comparison
            self.link = link
        }
    }

    public var entries: [Entry]
    /// Per engine, where its rules are explained, as links from the index's own folder.
    public var catalogueLinks: [String: CatalogueLinks] = [:]

    public init(entries: [Entry]) { self.entries = entries }

    /// Every engine of any entry, in the order they first appear.
    public var engines: [String] {
        var names: [String] = []
        for entry in entries {
            for engine in entry.comparison.engines where !names.contains(engine) {
                names.append(engine)
            }
        }
        return names
    }

    /// What one engine did in one story, as a short cell.
    static func cell(_ comparison: EngineComparison, engine: String) -> String {
        cell(comparison, engine: engine, text: { $0 }, rules: { $0.joined(separator: ", ") })
    }

    /// The cell with its rule IDs linked to the engine's catalogue page (Markdown or HTML).
    func linkedCell(_ comparison: EngineComparison, engine: String, markdown: Bool) -> String {
        let links = catalogueLinks[engine]
        return Self.cell(comparison, engine: engine,
            text: { markdown ? MarkdownText.inline($0) : XMLText.escape($0) },
            rules: {
                EngineComparison.linkedRules($0.joined(separator: ", "), links, markdown: markdown)
            })
    }

    private static func cell(
        _ comparison: EngineComparison, engine: String, text: (String) -> String,
        rules: ([String]) -> String
    ) -> String {
        guard let column = comparison.columns.first(where: { $0.engine == engine }) else {
            return text("—")
        }
        let verdict = column.judged ? (column.report.passed ? "pass" : "FAIL") : "not its story"
        var parts = [text(verdict)]
        if !column.decidingRules.isEmpty { parts.append(rules(column.decidingRules)) }
        let weaknesses = column.weaknessesFired.filter { !column.decidingRules.contains($0) }
        if !weaknesses.isEmpty { parts.append(text("also ") + rules(weaknesses)) }
        return parts.joined(separator: text(" · "))
    }

    public func markdown() -> String {
        let m = MarkdownText.self
        var out = ["# The engines compared, story by story", ""]
        out.append("Each story runs on every engine it lists; a cell says whether the engine did "
            + "what the story expects of it and the rules and weaknesses that decide it "
            + "(the story's `fired` expectations), then any other weakness that fired. "
            + "Open a story for the final states side by side and a sequence diagram per engine.")
        out += ["", "| story | " + engines.map { m.inline($0) }.joined(separator: " | ")
            + " | engines disagree on |"]
        out.append("|---|" + engines.map { _ in "---|" }.joined() + "---|")
        for entry in entries {
            let comparison = entry.comparison
            let disagree = comparison.differingRows.map(\.label)
            out.append("| [\(m.inline(comparison.title))](\(entry.link)) | "
                + engines.map { linkedCell(comparison, engine: $0, markdown: true) }
                    .joined(separator: " | ")
                + " | " + m.inline(disagree.isEmpty ? "nothing" : disagree.joined(separator: ", "))
                + " |")
        }
        let failed = entries.filter { !$0.comparison.passed }.count
        out += ["", "\(entries.count) stories, \(entries.count - failed) where every engine "
            + "met its own expectations, \(failed) where one did not."]
        return out.joined(separator: "\n") + "\n"
    }

    /// The narrowest an engine's column gets (six engines and the disagreement column fit a
    /// 1400-px window: 180 + 7 × 150 = 1230 of its 1352 px).
    static let minimumCellWidth = 150

    public func html() -> String {
        let e = { (text: String) in XMLText.escape(text) }
        var body = ["<h1>The engines compared, story by story</h1>"]
        body.append("<p>Each story runs on every engine it lists; a cell says whether the engine "
            + "did what the story expects of it and the rules and weaknesses that decide it, "
            + "then any other weakness that fired.</p>")
        // Cells here are a verdict and a few rule IDs: narrower columns fit every engine.
        let least = EngineComparison.labelWidth + (engines.count + 1) * Self.minimumCellWidth
        var html = "<div class=\"wide\"><table class=\"compare\" style=\"min-width: \(least)px\">"
            + "<thead><tr><th>story</th>"
            + engines.map { "<th>\(e($0))</th>" }.joined()
            + "<th>engines disagree on</th></tr></thead><tbody>"
        for entry in entries {
            let comparison = entry.comparison
            let disagree = comparison.differingRows.map(\.label)
            html += "<tr><td><a href=\"\(XMLText.escape(entry.link, attribute: true))\">"
                + "\(e(comparison.title))</a> \(HTMLPage.badge(passed: comparison.passed))</td>"
            html += engines.map {
                "<td>\(linkedCell(comparison, engine: $0, markdown: false))</td>"
            }.joined()
            html += "<td>"
                + "\(e(disagree.isEmpty ? "nothing" : disagree.joined(separator: ", ")))</td></tr>"
        }
        body.append(html + "</tbody></table></div>")
        return HTMLPage.document(title: "The engines compared", body: body,
            extraStyle: EngineComparison.htmlStyle)
    }
}
