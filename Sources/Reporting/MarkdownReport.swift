/// Renders a scenario report as GitHub-flavoured Markdown with a Mermaid diagram.
struct MarkdownReport {
    let report: ScenarioReport

    func render() -> String {
        var out: [String] = []
        header(into: &out)
        setup(into: &out)
        timeline(into: &out)
        finalState(into: &out)
        expectations(into: &out)
        rules(into: &out)
        leftovers(into: &out)
        return out.joined(separator: "\n") + "\n"
    }

    private var m: MarkdownText.Type { MarkdownText.self }

    private func header(into out: inout [String]) {
        let badge = report.passed ? "✅ **passed**" : "❌ **failed**"
        out.append("# \(m.inline(report.title))")
        out.append("")
        out.append([badge, report.outcomeText, "seed \(report.seed)", "engine \(report.engine)",
                    "\(ReportTime.text(microseconds: report.endTime)) simulated",
                    "\(report.eventCount) trace events"].joined(separator: " · "))
        out.append("")
        out.append("Scenario \(m.code(report.path)); rerun with "
            + m.code("\(report.command) run \(report.path) --seed \(report.seed)") + ".")
        if !report.about.isEmpty {
            out.append("")
            out.append(m.prose(report.about.joined(separator: " ")))
        }
        if let failure = report.failure {
            out.append("")
            out.append("> ❌ Runtime failure at line \(failure.line), "
                + "\(ReportTime.text(microseconds: failure.time.microseconds)): "
                + m.inline(failure.message))
        }
    }

    private func setup(into out: inout [String]) {
        let setup = report.setup
        out += ["", "## Setup", "", "### Entities"]
        if setup.entities.isEmpty { out += ["", "_No entities._"] }
        for entity in setup.entities {
            out += ["", "**\(m.inline(entity.name))**" + (entity.notes.isEmpty ? "" : " · "
                + entity.notes.map { m.code($0) }.joined(separator: " · ")), ""]
            out += table(["property", "type", "details"], entity.properties.map { property in
                [m.inline(property.name), m.code(property.type), m.inline(property.details)]
            })
        }
        out += ["", "### Accounts and devices", ""]
        out.append("Accounts: " + (setup.accounts.isEmpty ? "none"
            : setup.accounts.map { m.inline($0) }.joined(separator: ", ")) + ".")
        out.append("")
        out += table(["device", "account", "latency (one way)"], setup.devices.map { device in
            [m.inline(device.name), m.inline(device.account), m.inline(device.latency)]
        })
        out += ["", "### Network", ""]
        out += table(["setting", "value"], setup.network.map {
            [m.inline($0.name), m.code($0.value)]
        })
    }

    private func timeline(into out: inout [String]) {
        out += ["", "## Timeline", ""]
        out.append("Arrows stand where they arrive and are labelled `sent→arrived`; "
            + "▶ script action, ⚡ trigger, ⚠ fault, FAIL a failed expectation or runtime "
            + "failure; notes name the rules that decided. \(report.diagram.messageCount) arrows.")
        out += ["", "```mermaid"]
        out += MermaidWriter(diagram: report.diagram, limits: report.limits).lines()
        out.append("```")
    }

    private func finalState(into out: inout [String]) {
        out += ["", "## Final state"]
        guard let tables = report.finalState else {
            out += ["", "_The run did not record the final state._"]
            return
        }
        for table in tables {
            out += ["", "### \(m.inline(table.title))"]
            if !table.status.isEmpty {
                out += ["", m.inline(table.status.joined(separator: ", ")) + "."]
            }
            if table.entities.isEmpty { out += ["", "_Empty._"] }
            for entity in table.entities {
                out += ["", "**\(m.inline(entity.entity))**", ""]
                let rows = entity.rows.map { row in
                    [row[0].isEmpty ? "" : m.inline(row[0])] + row.dropFirst().map { m.code($0) }
                }
                out += self.table(["label", "record"] + entity.columns.map { m.inline($0) }, rows)
            }
        }
    }

    private func expectations(into out: inout [String]) {
        out += ["", "## Expectations", ""]
        if report.expectations.isEmpty { out.append("_The scenario checks nothing._"); return }
        out += table(["line", "expectation", "result", "found"], report.expectations.map { result in
            ["\(result.line)", m.code(result.wanted), result.passed ? "✅ pass" : "❌ fail",
             m.code(result.found)]
        })
    }

    private func rules(into out: inout [String]) {
        out += ["", "## Rules that fired", ""]
        if report.rules.isEmpty { out.append("_No rule fired._"); return }
        out += table(["rule", "times", "where", "text"], report.rules.map { rule in
            [m.inline(rule.id), "\(rule.count)", m.inline(rule.whereText),
             rule.text.map { m.prose($0) } ?? "—"]
        })
    }

    private func leftovers(into out: inout [String]) {
        guard !report.leftovers.isEmpty else { return }
        out += ["", "## Leftovers", ""]
        out += report.leftovers.map { "- " + m.inline($0) }
    }

    /// A GFM table; every cell is already escaped.
    private func table(_ headers: [String], _ rows: [[String]]) -> [String] {
        var lines = ["| " + headers.joined(separator: " | ") + " |"]
        lines.append("|" + String(repeating: " --- |", count: headers.count))
        for row in rows {
            lines.append("| " + row.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |")
        }
        return lines
    }
}
