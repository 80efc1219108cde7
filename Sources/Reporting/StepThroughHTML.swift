/// The step-through of a run: the event list, a slider, and the world as the run recorded it
/// after the chosen event. Every state is written into the page (one hidden block each); the
/// inline script only chooses which one shows, so no state is guessed in JavaScript.
struct StepThroughHTML {
    let steps: StepThrough
    let limits: DiagramLimits

    func section() -> [String] {
        let count = steps.events.count
        var body = ["<section id=\"step-through\" data-step=\"1\">",
                    "<h2>Step through the run</h2>"]
        var legend = "Move event by event with the keys ← and → (Home and End jump), the "
            + "slider or the buttons; the address keeps the place (<code>#step=N</code>). "
            + "Each step shows every device's store and pending changes and the cloud's "
            + "records as the run left them after that event, and the rules it fired."
        if steps.omitted > 0 {
            legend += " The run had \(steps.omitted) more events than the \(count) shown here."
        }
        body.append("<p class=\"legend\">\(legend)</p>")
        body.append("<div class=\"stepper\">"
            + "<button type=\"button\" id=\"step-prev\" aria-label=\"previous event\">←</button>"
            + "<input type=\"range\" id=\"step-range\" min=\"1\" max=\"\(count)\" value=\"1\""
            + " aria-label=\"event\"/>"
            + "<button type=\"button\" id=\"step-next\" aria-label=\"next event\">→</button>"
            + "<span id=\"step-label\">event 1 of \(count)</span></div>")
        body.append("<div class=\"step-grid\">")
        body.append("<ol class=\"events\" id=\"step-events\">")
        body += steps.events.enumerated().map { index, event in item(event, number: index + 1) }
        body.append("</ol>")
        body.append("<div class=\"step-now\">")
        body.append("<div id=\"step-rule\" class=\"rule-now\">"
            + ruleBox(steps.events.first?.rules ?? []) + "</div>")
        for (index, state) in steps.states.enumerated() {
            body += self.state(state, index: index, shown: index == steps.events.first?.state)
        }
        body += ["</div>", "</div>", "</section>"]
        return body
    }

    /// One event of the list; its rules and the state after it ride on data attributes.
    private func item(_ event: StepThrough.Event, number: Int) -> String {
        let e = { (text: String) in XMLText.escape(text) }
        let time = ReportTime.text(microseconds: event.time)
        let text = TextWidth.truncated(event.text, toCells: limits.maxLabelCells)
        let rules = event.rules.map(OutcomeHTML.ruleLink).joined(separator: " ")
        // Probe points are the engine's checkpoints for triggers: listed, but quietly.
        let quiet = event.kind == "probe" ? " class=\"probe\"" : ""
        return "<li id=\"step-\(number)\"\(quiet) data-state=\"\(event.state)\""
            + " data-time=\"\(e(time))\" data-actor=\"\(e(event.actor))\""
            + " data-rules=\"\(e(event.rules.joined(separator: " ")))\">"
            + "<span class=\"t\">\(e(time))</span> <strong>\(e(event.actor))</strong> "
            + "\(e(event.kind))" + (text.isEmpty ? "" : " <span class=\"d\">\(e(text))</span>")
            + (rules.isEmpty ? "" : " " + rules) + "</li>"
    }

    /// The rules the first event fired; the script refills it for each step.
    private func ruleBox(_ rules: [String]) -> String {
        rules.isEmpty ? "No rule fired at this event."
            : "Rule fired here: " + rules.map(OutcomeHTML.ruleLink).joined(separator: " ")
    }

    private func state(_ state: StepThrough.State, index: Int, shown: Bool) -> [String] {
        let hidden = shown ? "" : " hidden=\"hidden\""
        var body = ["<div class=\"state\" id=\"state-\(index)\" data-state=\"\(index)\"\(hidden)>"]
        let pending = Dictionary(state.pending.map { ($0.device, $0.text) },
                                 uniquingKeysWith: { first, _ in first })
        for table in state.tables {
            let owner = table.title.hasPrefix("cloud: ") ? "cloud"
                : String(table.title.prefix { $0 != " " })
            body.append("<div class=\"owner\" data-owner=\"\(XMLText.escape(owner))\">")
            body += HTMLReport.stateTable(table, heading: "h4")
            if owner != "cloud", let text = pending[owner] {
                body.append(text.isEmpty ? "<p class=\"pending\">Nothing pending.</p>"
                    : "<p class=\"pending\">Pending: \(HTMLPage.code(text))</p>")
            }
            body.append("</div>")
        }
        body.append("</div>")
        return body
    }

    static let style = [
        ".stepper { display: flex; gap: 8px; align-items: center; margin: 8px 0; }",
        ".stepper input { flex: 1; }",
        ".step-grid { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr);",
        "  gap: 16px; }",
        "ol.events { position: relative; max-height: 520px; overflow: auto; margin: 0;",
        "  padding: 4px 4px 4px 48px;",
        "  border: 1px solid #d0d7de; border-radius: 6px; font-size: 0.85em; }",
        "ol.events li { padding: 1px 4px; }",
        "ol.events li.current { background: #ddf4ff; outline: 1px solid #0969da; }",
        "ol.events .t { color: #57606a; }",
        "ol.events li.probe { color: #8c959f; }",
        "ol.events .d { color: #57606a; overflow-wrap: anywhere; }",
        ".rule-now { background: #ddf4ff; border-left: 4px solid #0969da; padding: 6px 10px;",
        "  margin-bottom: 8px; }",
        ".state { display: flex; flex-wrap: wrap; gap: 0 16px; }",
        ".state[hidden] { display: none; }",
        ".state .owner { min-width: 0; padding: 0 6px; border-radius: 6px; }",
        ".state .owner.actor { background: #f6f8fa; outline: 1px solid #d0d7de; }",
        ".state h4 { margin: 8px 0 0; }",
        ".pending { color: #9a6700; }",
    ]
}
