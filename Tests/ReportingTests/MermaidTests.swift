import Reporting
import Testing

/// Labels can hold anything a scenario author types; Mermaid must still read one statement
/// per line, and the Markdown fence around it must stay closed.
@Suite struct MermaidTests {
    @Test(arguments: [
        ("say \"hi\"", "say #34;hi#34;"),
        ("a; b", "a#59; b"),
        ("#1 and #35;", "#35;1 and #35;35#59;"),
        ("x<y>z & w", "x#60;y#62;z #38; w"),
        ("50% %%{init}%%", "50#37; #37;#37;{init}#37;#37;"),
        ("```code```", "#96;#96;#96;code#96;#96;#96;"),
        ("two\nlines\tand\u{1}", "two lines and "),
        ("é ⚡ ok", "é ⚡ ok"),
    ])
    func escaping(_ text: String, _ expected: String) {
        #expect(MermaidText.escape(text) == expected)
    }

    @Test(arguments: [
        ("phone", true), ("laptop_2", true), ("my-phone", false), ("end", false),
        ("Note", false), ("2phone", false), ("tëlé", false),
    ])
    func plainIdentifiers(_ name: String, _ plain: Bool) {
        #expect(MermaidText.isPlainIdentifier(name) == plain)
    }

    /// The diagram's lines, between the fence lines of the Markdown report.
    static func diagramLines(_ markdown: String) -> [Substring] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "```mermaid"),
              let end = lines[(start + 1)...].firstIndex(of: "```") else { return [] }
        return Array(lines[(start + 1)..<end])
    }

    @Test func everyDiagramLineIsOneMermaidStatement() {
        let lines = Self.diagramLines(Fixtures.report().markdown())
        #expect(lines.first == "sequenceDiagram")
        let statements = ["participant ", "Note over ", "rect ", "end"]
        for line in lines.dropFirst() {
            let body = line.drop { $0 == " " }
            let isArrow = body.contains("->>") || body.contains("-->>") || body.contains("-)")
                || body.contains("--x")
            #expect(isArrow || statements.contains { body.hasPrefix($0) }, "\(line)")
            #expect(!body.contains(";") || body.contains("#59;") || body.contains("#34;"),
                    "a raw ';' would end the statement: \(line)")
            #expect(!body.contains("`"), "\(line)")
            #expect(!body.contains("\""), "\(line)")
        }
    }

    @Test func participantsWithAwkwardNamesGetAliases() {
        var scenario = Fixtures.scenario
        scenario.devices[0].name.value = "my-phone"
        scenario.devices[1].name.value = "end"
        let events = [
            Fixtures.event(0, "my-phone", "app.launched"),
            Fixtures.event(0, "end", "app.launched"),
        ]
        let run = ReportedRun(seed: 1, events: events, expectations: [], endTime: .zero)
        let report = ScenarioReport(
            path: "x.scenario", scenario: scenario, source: "", run: run, finalState: nil,
            ruleTexts: [:])
        let lines = Self.diagramLines(report.markdown())
        #expect(lines.contains("    participant participant1 as my-phone"))
        #expect(lines.contains("    participant participant2 as end"))
        #expect(lines.contains("    participant cloud"))
        #expect(lines.contains("    Note over participant2: 0s app.launched"))
    }

    @Test func arrowsNotesAndHighlightsOfTheFixture() {
        let lines = Self.diagramLines(Fixtures.report().markdown()).map(String.init)
        #expect(lines.contains("    phone->>cloud: 0s→0.1s r1 accountStatus"))
        #expect(lines.contains("    cloud-->>phone: 0.1s→0.2s r1 accountStatus ok"))
        #expect(lines.contains(
            "    phone->>cloud: 0.2s→0.3s r2 modifyRecords saves=[n1] policy=changedKeys"))
        #expect(lines.contains("    cloud-)laptop: 0.3s→1.3s push"))
        #expect(lines.contains("    cloud--xphone: 1.85s→2.1s r3 answer lost"))
        #expect(lines.contains(
            "    Note over phone: 0s SYNC-1 change.recorded model=n1 change=insert"))
        #expect(lines.contains("    rect rgb(255, 243, 205)"))
        #expect(lines.contains {
            $0.hasPrefix("    Note over phone,laptop: ⚡ 1.9s line 16: when laptop")
        })
        #expect(lines.contains("    rect rgb(253, 226, 226)"))
        #expect(lines.contains(
            "    Note over cloud: ⚠ 2s line 17: cloud: throttle alice for 30s"))
        #expect(lines.contains {
            $0.contains("NEW-1 future.decision note=x#60;y #38; z#59; #35;1")
        })
        #expect(lines.contains {
            $0.contains("FAIL 2.5s line 20: expect converged — found: phone lacks n1")
        })
        #expect(!lines.contains { $0.contains("future.cloud-thing") },
                "unknown kinds without rules are left out")
        #expect(!lines.contains { $0.contains("networkUnavailable (3)") },
                "an answer the device made up itself is not drawn as coming from the cloud")
    }
}
