import Harness
import Scenario

/// One story run on several engines, side by side (`synclab compare`).
///
/// Each column is one engine's run as a `ScenarioReport`; the rows line the runs up: the
/// final state of every device and every account's zone, each `expect` line of the file
/// (held, failed, or not this engine's), the rules and weaknesses that fired, the
/// leftovers. A row whose cells differ between engines is marked, so the places where the
/// engines disagree stand out. Everything is in file, declaration or catalogue order.
public struct EngineComparison: Sendable {
    /// One engine's run of the story.
    public struct Column: Sendable {
        public var engine: String
        public var report: ScenarioReport
        /// Whether the file's expectations are this engine's own: an engine of its
        /// `engines` line, or its one engine. Only these decide `passed`.
        public var judged: Bool
        /// The IDs of the rules of its catalogue that are weaknesses (`explains`).
        public var weaknessIDs: [String]
        /// The rule IDs the story's `fired` expectations on this engine name (the IDs that
        /// decide its outcome), in file order; set by `EngineComparison`.
        public var decidingRules: [String] = []

        public init(engine: String, report: ScenarioReport, judged: Bool, weaknessIDs: [String]) {
            self.engine = engine
            self.report = report
            self.judged = judged
            self.weaknessIDs = weaknessIDs
        }

        /// The rules that fired and are no weakness, in catalogue order.
        public var rulesFired: [String] {
            report.rules.map(\.id).filter { !weaknessIDs.contains($0) }
        }

        /// The weaknesses that fired, in catalogue order.
        public var weaknessesFired: [String] {
            report.rules.map(\.id).filter { weaknessIDs.contains($0) }
        }
    }

    /// One line of the side-by-side table: a label, then one cell per column.
    public struct Row: Hashable, Sendable {
        public var label: String
        public var cells: [String]
        /// Whether cells of different engines can be compared: not for each engine's own
        /// rule IDs or expectation counts, which differ by catalogue.
        public var comparable = true
        /// Whether each cell is a list of rule IDs (`SYNC-2, SYNC-4`, or `none`), which the
        /// Markdown and HTML renderings link to the engine's catalogue page.
        public var listsRules = false
        /// Per cell, the items it joins with `; ` (a final state's models), which the HTML
        /// rendering shows one per line; empty when a cell is one item.
        public var items: [[String]] = []

        public init(
            label: String, cells: [String], comparable: Bool = true, listsRules: Bool = false,
            items: [[String]] = []
        ) {
            self.label = label
            self.cells = cells
            self.comparable = comparable
            self.listsRules = listsRules
            self.items = items
        }

        /// Whether the engines disagree here.
        public var differs: Bool {
            guard comparable else { return false }
            let shown = cells.filter { $0 != Self.notApplicable }
            guard let first = shown.first else { return false }
            return shown.contains { $0 != first }
        }

        static let notApplicable = "—"
    }

    /// The scenario's path as given on the command line.
    public var path: String
    /// The command a reader reruns it with (`ScenarioReport.command`).
    public var command = "synclab"
    public var title: String
    public var about: [String]
    public var columns: [Column]
    /// The registered engines asked for that cannot run the story, each with the reason
    /// (`naive: engine 'naive' does not support 'share' (line 12)`).
    public var notRun: [String] = []
    /// Per engine, where its rules are explained (its catalogue page, as a link from the
    /// page this comparison is written to); an engine without an entry gets plain IDs.
    public var catalogueLinks: [String: CatalogueLinks] = [:]
    /// Engines whose catalogue page was not found (a run outside the repository), each with
    /// the page it looked for: the page says how to read the catalogue instead.
    public var missingCatalogues: [(engine: String, page: String)] = []
    /// One row per device, then per account's zone.
    public var stateRows: [Row]
    /// One row per `expect` line, in file order.
    public var expectationRows: [Row]
    /// Outcome, rules and weaknesses that fired, leftovers.
    public var summaryRows: [Row]

    public init(path: String, scenario: ScenarioFile, source: String, columns: [Column]) {
        self.path = path
        title = scenario.header.title?.value ?? path
        about = scenario.header.about.map(\.value)
        self.columns = columns.map { column in
            var column = column
            column.decidingRules = Self.firedExpectations(scenario, engine: column.engine)
            return column
        }
        stateRows = Self.stateRows(self.columns)
        expectationRows = Self.expectationRows(scenario, source: SourceLines(source), self.columns)
        summaryRows = Self.summaryRows(self.columns)
    }

    /// Every judged engine met its own expectations (and its run did not fail).
    public var passed: Bool { columns.filter(\.judged).allSatisfy(\.report.passed) }

    /// The engines, in column order.
    public var engines: [String] { columns.map(\.engine) }

    /// Rows where the engines disagree, of every section.
    public var differingRows: [Row] {
        (stateRows + summaryRows).filter(\.differs)
    }

    // MARK: - Building the rows

    private static func firedExpectations(_ scenario: ScenarioFile, engine: String) -> [String] {
        var rules: [String] = []
        for statement in scenario.timeline {
            guard case .expectation(let expectation) = statement.kind,
                  expectation.applies(to: engine),
                case .fired(_, let rule, true) = expectation.kind, !rules.contains(rule.value)
            else { continue }
            rules.append(rule.value)
        }
        return rules
    }

    private static func stateRows(_ columns: [Column]) -> [Row] {
        var titles: [String] = []
        for column in columns {
            for table in column.report.finalState ?? [] where !titles.contains(table.title) {
                titles.append(table.title)
            }
        }
        return titles.map { title in
            let items = columns.map { column in
                guard let table = column.report.finalState?.first(where: { $0.title == title })
                else { return [Row.notApplicable] }
                return cellItems(table)
            }
            return Row(label: title, cells: items.map { $0.joined(separator: "; ") }, items: items)
        }
    }

    /// A device's or a zone's content as one line: `n1 title="B" body="x"; (no label) …`.
    static func cell(_ table: StateTable) -> String {
        cellItems(table).joined(separator: "; ")
    }

    /// The models of a device or a zone, one item each, the status (if any) on the last.
    static func cellItems(_ table: StateTable) -> [String] {
        var parts: [String] = []
        for entity in table.entities {
            for row in entity.rows {
                let label = row.first.flatMap {
                    $0.isEmpty ? nil : $0
                } ?? "(\(entity.entity), no label)"
                var text = label
                for (index, column) in entity.columns.enumerated() {
                    let value = index + 2 < row.count ? row[index + 2] : ""
                    if !value.isEmpty { text += " \(column)=\(value)" }
                }
                parts.append(text)
            }
        }
        if parts.isEmpty { parts = ["(empty)"] }
        if !table.status.isEmpty {
            parts[parts.count - 1] += " [" + table.status.joined(separator: ", ") + "]"
        }
        return parts
    }

    private static func expectationRows(
        _ scenario: ScenarioFile, source: SourceLines, _ columns: [Column]
    ) -> [Row] {
        var rows: [Row] = []
        for statement in scenario.timeline {
            guard case .expectation(let expectation) = statement.kind else { continue }
            let label = "line \(statement.line): " + source.statement(at: statement.line)
            rows.append(Row(label: label, cells: columns.map { column in
                guard expectation.applies(to: column.engine) else { return Row.notApplicable }
                guard let result = column.report.expectations.first(where: {
                    $0.line == statement.line
                })
                else { return "not reached" }
                let verdict = result.passed ? "pass" : "FAIL: found \(result.found)"
                return column.judged ? verdict : verdict + " (not its own)"
            }))
        }
        return rows
    }

    private static func summaryRows(_ columns: [Column]) -> [Row] {
        func list(_ items: [String]) -> String {
            items.isEmpty ? "none" : items.joined(separator: ", ")
        }
        let outcome = columns.map { column in
            var text = (column.report.passed ? "pass" : "FAIL") + ", " + column.report.outcomeText
            if let failure = column.report.failure {
                text += " at line \(failure.line): \(failure.message)"
            }
            if !column.judged { text += " (the file's expectations are not its own)" }
            return text
        }
        return [
            Row(label: "outcome", cells: outcome, comparable: false),
            Row(label: "deciding rules (the story's 'fired' expectations)",
                cells: columns.map { list($0.decidingRules) }, comparable: false, listsRules: true),
            Row(label: "rules fired", cells: columns.map { list($0.rulesFired) }, comparable: false,
                listsRules: true),
            Row(label: "weaknesses fired", cells: columns.map { list($0.weaknessesFired) },
                listsRules: true),
            Row(label: "leftovers", cells: columns.map { list($0.report.leftovers) }),
        ]
    }
}
