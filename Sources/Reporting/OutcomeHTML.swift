/// The report's first section: what happened, as a few generated sentences.
struct OutcomeHTML {
    let report: ScenarioReport

    /// Rule IDs named in a sentence before `and N more`.
    static let shownRules = 8

    static let style = [
        "#outcome ul { padding-left: 20px; }",
        "#outcome li { margin: 4px 0; }",
        ".rid, #rules td:first-child code { white-space: nowrap; }",
        ".weakness { background: #fff8c5; }",
    ]

    func section() -> [String] {
        let outcome = report.outcome
        var items: [String] = []
        if outcome.actions.isEmpty {
            items.append("The script did nothing but let time pass.")
        } else {
            let more = outcome.moreActions > 0 ? "; and \(outcome.moreActions) more" : ""
            items.append("The script did " + outcome.actions.map(HTMLPage.code)
                .joined(separator: "; ") + more + ".")
        }
        items += outcome.clouds.map(Self.cloudSentence)
        items.append(rulesSentence(outcome.rules))
        items.append(weaknessSentence(outcome.weaknesses))
        items.append(verdictSentence())
        return ["<section id=\"outcome\">", "<h2>What happened</h2>", "<ul>"]
            + items.map { "<li>\($0)</li>" } + ["</ul>", "</section>"]
    }

    private static func cloudSentence(_ cloud: OutcomeSummary.CloudEnd) -> String {
        let account = XMLText.escape(cloud.account)
        guard cloud.recordCount > 0 else { return "The cloud of \(account) ended empty." }
        let noun = cloud.recordCount == 1 ? "record" : "records"
        let more = cloud.recordCount - cloud.samples.count
        return "The cloud of \(account) ended with \(cloud.recordCount) \(noun): "
            + cloud.samples.map(HTMLPage.code).joined(separator: ", ")
            + (more > 0 ? ", and \(more) more" : "") + "."
    }

    /// A rule ID that links to its row of the rule list and never breaks at its hyphen.
    static func ruleLink(_ id: String) -> String {
        let anchor = XMLText.escape(RuleID.anchor(id), attribute: true)
        return "<a href=\"#\(anchor)\"><code class=\"rid\">\(XMLText.escape(id))</code></a>"
    }

    private func places(_ rule: RuleTally) -> String {
        rule.participants.map { "\(XMLText.escape($0.name)) ×\($0.count)" }
            .joined(separator: ", ")
    }

    private func rulesSentence(_ rules: [RuleTally]) -> String {
        guard !rules.isEmpty else { return "No catalogued rule fired." }
        let shown = rules.prefix(Self.shownRules).map { "\(Self.ruleLink($0.id)) (\(places($0)))" }
        let more = rules.count - shown.count
        return "The rules that decided it: " + shown.joined(separator: ", ")
            + (more > 0 ? ", and \(more) more (see Rules that fired)" : "") + "."
    }

    private func weaknessSentence(_ weaknesses: [RuleTally]) -> String {
        guard !weaknesses.isEmpty else { return "No known weakness of the engine fired." }
        let named = weaknesses.map { rule -> String in
            let text = rule.text.map { ": " + HTMLPage.prose($0) } ?? ""
            return "\(Self.ruleLink(rule.id)) on \(places(rule))\(text)"
        }
        return "<span class=\"weakness\">A known weakness fired, a path where a change can be "
            + "lost or the devices diverge</span>: " + named.joined(separator: "; ")
    }

    private func verdictSentence() -> String {
        let badge = HTMLPage.badge(passed: report.passed)
        let failed = report.outcome.failed
        guard !failed.isEmpty else {
            return "\(badge) \(XMLText.escape(report.outcomeText))."
        }
        let first = HTMLPage.code(failed[0])
        let more = failed.count > 1 ? " (and \(failed.count - 1) more)" : ""
        return "\(badge) \(XMLText.escape(report.outcomeText)); the first that failed: "
            + "\(first)\(more)."
    }
}
