import Kernel
import Reporting
import Testing

/// Long runs stay readable: repeated exchanges collapse to their first and last repetition,
/// and a diagram never passes its cap.
@Suite struct SummaryTests {
    /// A device retrying a throttled upload `count` times, each turn four rows.
    static func retries(_ count: Int) -> [TraceEvent] {
        var events: [TraceEvent] = []
        for turn in 1...count {
            let start = Int64(turn) * 1_000_000
            let request = TraceValue.string("r\(turn)")
            events.append(Fixtures.event(start, "phone", "request.sent", [
                Fixtures.field("request", request), Fixtures.field("kind", "modifyRecords"),
                Fixtures.field("arrives", .int(start + 100_000))]))
            events.append(Fixtures.event(start + 100_000, "cloud", "request.handled", [
                Fixtures.field("device", "phone"), Fixtures.field("request", request),
                Fixtures.field("kind", "modifyRecords")]))
            events.append(Fixtures.event(start + 200_000, "phone", "response.received", [
                Fixtures.field("request", request),
                Fixtures.field("error", .string("requestRateLimited, retry after \(turn)s"))]))
            events.append(Fixtures.event(start + 200_000, "phone", "retry.scheduled", [
                Fixtures.field("after", .int(Int64(turn) * 1_000_000))], rules: ["ERR-3"]))
        }
        return events
    }

    static func report(
        _ events: [TraceEvent], limits: DiagramLimits = .standard
    ) -> ScenarioReport {
        let run = ReportedRun(seed: 1, events: events, expectations: [],
                              endTime: events.last?.time ?? .zero)
        return ScenarioReport(path: "long.scenario", scenario: Fixtures.scenario, source: "",
                              run: run, finalState: nil, ruleTexts: [:], limits: limits)
    }

    @Test func fiveHundredRetriesCollapseToTheFirstAndTheLast() {
        let report = Self.report(Self.retries(500))
        let diagram = report.diagram
        #expect(diagram.messageCount == 4)
        #expect(diagram.steps.count == 7)
        guard case .gap(let gap) = diagram.steps[3] else {
            Issue.record("expected a gap note in the middle: \(diagram.steps)")
            return
        }
        #expect(gap.text == "… 498 similar exchanges from 2.1s to 8m19.2s, 996 arrows …")
        let markdown = report.markdown()
        #expect(markdown.contains("phone->>cloud: 1s→1.1s r1 modifyRecords"))
        #expect(markdown.contains("phone->>cloud: 8m20s→8m20.1s r500 modifyRecords"))
        #expect(!markdown.contains("r250 "))
        #expect(report.rules.first?.count == 500, "the rule list still counts every decision")
    }

    @Test func distinctExchangesStopAtTheCap() {
        var events: [TraceEvent] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for turn in 0..<400 {
            let name = String([letters[turn / 26 % 26], letters[turn % 26]])
            let request = TraceValue.string("q" + name)
            let time = Int64(turn) * 1_000
            events.append(Fixtures.event(time, "phone", "request.sent", [
                Fixtures.field("request", request), Fixtures.field("kind", .string("k" + name))]))
            events.append(Fixtures.event(time + 10, "cloud", "request.handled", [
                Fixtures.field("device", "phone"), Fixtures.field("request", request),
                Fixtures.field("kind", .string("k" + name))]))
        }
        let diagram = Self.report(events).diagram
        #expect(diagram.messageCount == 150)
        guard case .gap(let gap)? = diagram.steps.last else {
            Issue.record("expected the cut note last")
            return
        }
        #expect(gap.text == "… diagram cut here: 250 more rows (250 arrows) from 0.15001s to "
            + "0.39901s; the trace has every event …")
    }

    @Test func rowCapAppliesToRunsOfNotes() {
        var events: [TraceEvent] = []
        for turn in 0..<1_000 {
            let word = String(repeating: "x", count: turn % 7 + 1) + String(turn % 5)
            events.append(Fixtures.event(Int64(turn), turn % 2 == 0 ? "phone" : "laptop",
                                         "app.launched", [Fixtures.field("w", .string(word))]))
        }
        let limits = DiagramLimits(maxRows: 40)
        let diagram = Self.report(events, limits: limits).diagram
        #expect(diagram.steps.count <= 40)
    }

    @Test func rulesDecidedTogetherShareOneNote() {
        let events = [
            Fixtures.event(5, "phone", "a", rules: ["SYNC-2"]),
            Fixtures.event(5, "phone", "b", [Fixtures.field("n", 1)], rules: ["DL-1"]),
            Fixtures.event(5, "phone", "b", [Fixtures.field("n", 1)], rules: ["DL-1"]),
            Fixtures.event(5, "laptop", "a", rules: ["SYNC-2"]),
        ]
        let steps = Self.report(events).diagram.steps
        #expect(steps.count == 2)
        guard case .note(let note) = steps[0] else { Issue.record("\(steps)"); return }
        #expect(note.plainLines == ["0.000005s SYNC-2 a", "DL-1 b n=1 ×2"])
    }

    @Test func aBusyMomentKeepsItsNoteShort() {
        let events = (0..<20).map { index in
            Fixtures.event(7, "phone", "record.applied", [Fixtures.field("i", .int(Int64(index)))],
                           rules: ["ID-2"])
        }
        let steps = Self.report(events, limits: DiagramLimits(maxNoteLines: 4)).diagram.steps
        guard case .note(let note) = steps.first else { Issue.record("\(steps)"); return }
        #expect(note.lines.count == 4)
        #expect(note.lines.last?.text == "+17 more decisions")
    }
}

extension SummaryTests {
    @Test func repeatedNotesAloneAreCalledSteps() {
        let events = (1...10).map { index in
            Fixtures.event(0, "phone", "change.recorded",
                           [Fixtures.field("model", .string("m\(index)"))], rules: ["SYNC-1"])
        }.enumerated().map { offset, event -> TraceEvent in
            var copy = event
            copy.time = SimTime(microseconds: Int64(offset))
            return copy
        }
        let steps = Self.report(events).diagram.steps
        #expect(steps.count == 3)
        guard case .gap(let gap) = steps[1] else { Issue.record("\(steps)"); return }
        #expect(gap.text == "… 8 similar steps from 0.000001s to 0.000008s …")
    }

    /// 200,000 events fold into a diagram of four messages and pages of bounded size. Speed is
    /// a benchmark's business, not a test's: this used to also time itself against the wall
    /// clock, which failed on a loaded machine (30.6 s against 30) without any change to it.
    @Test func aVeryLongRunIsSummarisedInBoundedSize() {
        let report = Self.report(Self.retries(50_000))
        let markdown = report.markdown()
        let html = report.html()
        #expect(report.diagram.messageCount == 4)
        #expect(markdown.utf8.count < 20_000 && html.utf8.count < 40_000, "200,000 events")
    }
}
