/// Renders a scenario report as one self-contained HTML page with an inline SVG diagram.
struct HTMLReport {
    let report: ScenarioReport

    /// The outcome first (what happened, the final state, the expectations), then the run
    /// step by step and as a diagram, the rules, and the setup last.
    func render() -> String {
        var body: [String] = []
        header(into: &body)
        body += OutcomeHTML(report: report).section()
        about(into: &body)
        finalState(into: &body)
        if !report.leftovers.isEmpty {
            body += ["<section id=\"leftovers\">", "<h2>Leftovers</h2>", "<ul>"]
            body += report.leftovers.map { "<li>\(XMLText.escape($0))</li>" }
            body += ["</ul>", "</section>"]
        }
        expectations(into: &body)
        if let steps = report.stepThrough {
            body += StepThroughHTML(steps: steps, limits: report.limits).section()
        }
        timeline(into: &body)
        rules(into: &body)
        setup(into: &body)
        let stepping = report.stepThrough != nil
        return HTMLPage.document(
            title: report.title, body: body,
            extraStyle: OutcomeHTML.style + (stepping ? StepThroughHTML.style : []),
            script: stepping ? StepThroughHTML.script : [])
    }

    /// The diagram of the run, with each launch's routine traffic folded into its own.
    private func timeline(into body: inout [String]) {
        let fold = RoutineFold(report.diagram)
        body += ["<section id=\"timeline\">", "<h2>Timeline</h2>"]
        body.append("<p class=\"legend\">Arrows stand where they arrive and are labelled "
            + "<code>sent→arrived</code>; ▶ script action, ⚡ trigger, ⚠ fault, "
            + "FAIL a failed expectation or runtime failure; "
            + "notes name the rules that decided (each links to its text below). "
            + "\(report.diagram.messageCount) arrows.</p>")
        body += Self.diagram(fold.story)
        if !fold.routine.steps.isEmpty {
            body.append("<details id=\"launch-traffic\"><summary>Launch traffic: "
                + "\(fold.routine.messageCount) routine arrows (account checks, zones, "
                + "subscriptions) and their notes, folded out of the diagram above</summary>")
            body += Self.diagram(fold.routine, markerPrefix: "launch-")
            body.append("</details>")
        }
        body.append("</section>")
    }

    static func diagram(_ diagram: SequenceDiagram, markerPrefix: String = "") -> [String] {
        var writer = SVGSequenceWriter(diagram: diagram)
        writer.markerPrefix = markerPrefix
        return ["<div class=\"diagram\" tabindex=\"0\">",
                "<div class=\"names\">", writer.header(), "</div>",
                writer.render(), "</div>"]
    }

    private func e(_ text: String) -> String { XMLText.escape(text) }

    private func header(into body: inout [String]) {
        let badge = HTMLPage.badge(passed: report.passed)
        body += ["<header>", "<h1>\(e(report.title))</h1>"]
        let simulated = ReportTime.text(microseconds: report.endTime)
        let facts = [badge, e(report.outcomeText), "seed \(report.seed)",
                     "engine \(e(report.engine))", "\(simulated) simulated",
                     "\(report.eventCount) trace events"]
        body.append("<p>" + facts.joined(separator: " · ") + "</p>")
        if let failure = report.failure {
            body.append("<p class=\"failure\"><strong>Runtime failure</strong> at line "
                + "\(failure.line), "
                + "\(ReportTime.text(microseconds: failure.time.microseconds)): "
                + "\(e(failure.message))</p>")
        }
        body.append("</header>")
    }

    private func about(into body: inout [String]) {
        body += ["<section id=\"about\">", "<h2>The scenario</h2>"]
        if !report.about.isEmpty {
            let about = HTMLPage.prose(report.about.joined(separator: " "))
            body.append("<p class=\"about\">\(about)</p>")
        }
        body.append("<p>Scenario \(HTMLPage.code(report.path)); rerun with "
            + HTMLPage.code("\(report.command) run \(report.path) --seed \(report.seed)") + ".</p>")
        body.append("</section>")
    }

    private func setup(into body: inout [String]) {
        let setup = report.setup
        body += ["<section id=\"setup\">", "<h2>Setup</h2>", "<h3>Entities</h3>"]
        if setup.entities.isEmpty { body.append("<p><em>No entities.</em></p>") }
        for entity in setup.entities {
            let notes = entity.notes.map { " · " + HTMLPage.code($0) }.joined()
            body.append("<p><strong>\(e(entity.name))</strong>\(notes)</p>")
            body.append(HTMLPage.table(["property", "type", "details"], entity.properties.map {
                [e($0.name), HTMLPage.code($0.type), e($0.details)]
            }))
        }
        body.append("<h3>Accounts and devices</h3>")
        body.append("<p>Accounts: " + (setup.accounts.isEmpty ? "none"
            : setup.accounts.map(e).joined(separator: ", ")) + ".</p>")
        body.append(HTMLPage.table(["device", "account", "latency (one way)"], setup.devices.map {
            [e($0.name), e($0.account), e($0.latency)]
        }))
        body.append("<h3>Network</h3>")
        body.append(HTMLPage.table(["setting", "value"], setup.network.map {
            [e($0.name), HTMLPage.code($0.value)]
        }))
        body.append("</section>")
    }

    private func finalState(into body: inout [String]) {
        body += ["<section id=\"final-state\">", "<h2>Final state</h2>"]
        defer { body.append("</section>") }
        guard let tables = report.finalState else {
            body.append("<p><em>The run did not record the final state.</em></p>")
            return
        }
        for table in tables { body += Self.stateTable(table, heading: "h3") }
    }

    /// Text as code whose rule IDs (`expect phone: fired OBX-12`) never break at the hyphen.
    static func unbrokenCode(_ text: String) -> String {
        text.isEmpty ? "" : "<code>\(RuleID.unbrokenHTML(text))</code>"
    }

    /// One device's models or one account's records, under a heading of that level.
    static func stateTable(_ table: StateTable, heading: String) -> [String] {
        let e = { (text: String) in XMLText.escape(text) }
        var body = ["<\(heading)>\(e(table.title))</\(heading)>"]
        if !table.status.isEmpty {
            body.append("<p>\(e(table.status.joined(separator: ", "))).</p>")
        }
        if table.entities.isEmpty { body.append("<p><em>Empty.</em></p>") }
        for entity in table.entities {
            body.append("<p><strong>\(e(entity.entity))</strong></p>")
            body.append(HTMLPage.table(["label", "record"] + entity.columns.map { e($0) },
                entity.rows.map { row in [e(row[0])] + row.dropFirst().map(HTMLPage.code) }))
        }
        return body
    }

    private func expectations(into body: inout [String]) {
        body += ["<section id=\"expectations\">", "<h2>Expectations</h2>"]
        if report.expectations.isEmpty {
            body.append("<p><em>The scenario checks nothing.</em></p>")
        } else {
            body.append(HTMLPage.table(["line", "expectation", "result", "found"],
                report.expectations.map { result in
                    ["\(result.line)", Self.unbrokenCode(result.wanted),
                     HTMLPage.badge(passed: result.passed), Self.unbrokenCode(result.found)]
                }))
        }
        body.append("</section>")
    }

    private func rules(into body: inout [String]) {
        body += ["<section id=\"rules\">", "<h2>Rules that fired</h2>"]
        if report.rules.isEmpty {
            body.append("<p><em>No rule fired.</em></p>")
        } else {
            let rows = report.rules.map { rule in
                ["<code>\(e(rule.id))</code>", "\(rule.count)", e(rule.whereText),
                 rule.text.map(HTMLPage.prose) ?? "—"]
            }
            body.append(HTMLPage.table(["rule", "times", "where", "text"], rows,
                                       rowIDs: report.rules.map { RuleID.anchor($0.id) }))
        }
        body.append("</section>")
    }
}
