import Harness
@testable import Reporting
import Testing

/// The HTML report leads with the outcome, folds each launch's routine traffic, and steps
/// through the run with the states the harness recorded, not states guessed from the trace.
@Suite struct StepThroughTests {
    /// The fixture's run with a recorded state per event: the phone's store gains `n1` at
    /// its change (event 4), the cloud's record arrives with the save (event 12).
    static var run: ReportedRun {
        var run = Fixtures.run
        let empty = StepState(tables: FinalState(
            devices: [FinalState.DeviceTable(name: "phone", account: "alice", models: []),
                      FinalState.DeviceTable(name: "laptop", account: "alice", models: [])],
            accounts: [FinalState.AccountTable(account: "alice", records: [])]),
            pending: [StepState.Pending(device: "phone", changes: [], deletions: []),
                      StepState.Pending(device: "laptop", changes: [], deletions: [])])
        var saved = empty
        let row = FinalState.Row(entity: "Note", name: Fixtures.record, fields: [
            FinalState.Field(key: "title", value: "\"Groceries\"")])
        saved.tables.devices[0].models = [row]
        saved.pending[0].changes = [Fixtures.record]
        var uploaded = saved
        uploaded.tables.accounts[0].records = [row]
        uploaded.pending[0].changes = []
        let count = run.events.count
        let stateOfEvent = (0..<count).map { $0 < 4 ? 0 : ($0 < 12 ? 1 : 2) }
        run.steps = StepSnapshots(states: [empty, saved, uploaded], stateOfEvent: stateOfEvent)
        return run
    }

    static var report: ScenarioReport {
        ScenarioReport(
            path: Fixtures.path, scenario: Fixtures.scenario, source: Fixtures.source, run: run,
            finalState: Fixtures.finalState, ruleTexts: Fixtures.ruleTexts,
            weaknessIDs: ["NEW-1"])
    }

    @Test func sectionsComeOutcomeFirstAndSetupLast() throws {
        let html = Self.report.html()
        let order = ["id=\"outcome\"", "id=\"final-state\"", "id=\"expectations\"",
                     "id=\"step-through\"", "id=\"timeline\"", "id=\"rules\"", "id=\"setup\""]
        let positions = try order.map { id in
            try #require(html.range(of: id), "\(id) missing").lowerBound
        }
        #expect(positions == positions.sorted(), "\(order)")
    }

    @Test func theOutcomeSaysWhatHappened() {
        let html = Self.report.html()
        #expect(html.contains("The script did <code>phone: insert Note n1"))
        #expect(html.contains("The cloud of alice ended with 1 record: <code>n1 Note"))
        #expect(html.contains("The rules that decided it: <a href=\"#rule-DL-1\">"))
        #expect(html.contains("<a href=\"#rule-SYNC-1\"><code class=\"rid\">SYNC-1</code></a>"
            + " (phone ×1)"))
        #expect(html.contains("A known weakness fired"))
        #expect(html.contains(
            "<a href=\"#rule-NEW-1\"><code class=\"rid\">NEW-1</code></a> on laptop ×1"))
        #expect(html.contains("the first that failed: <code>line 20: expect converged"))
    }

    @Test func everyEventIsAStepAndNamesTheRecordedState() throws {
        let steps = try #require(Self.report.stepThrough)
        #expect(steps.events.count == Fixtures.run.events.count)
        #expect(steps.states.count == 3)
        #expect(steps.events.map(\.state) == Self.run.steps?.stateOfEvent)
        let html = Self.report.html()
        #expect(XMLCheck.problem(html) == nil)
        #expect(html.contains("<li id=\"step-5\" data-state=\"1\""))
        #expect(html.contains("<div class=\"state\" id=\"state-0\" data-state=\"0\">"))
        #expect(html.contains(
            "<div class=\"state\" id=\"state-1\" data-state=\"1\" hidden=\"hidden\">"))
        #expect(html.contains("<p class=\"pending\">Pending: <code>n1</code></p>"), "labels")
        #expect(html.contains("data-rules=\"SYNC-1\""))
        #expect(html.contains(
            "<input type=\"range\" id=\"step-range\" min=\"1\" max=\"\(steps.events.count)\""))
    }

    @Test func theScriptIsInlineAndTheOnlyOne() {
        let html = Self.report.html()
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.contains("<script>\n//<![CDATA["))
        #expect(!html.contains("<script src"))
        #expect(!html.contains("]]>\n//]]>"))
        #expect(html.contains("history.replaceState(null, '', '#step=' + n)"))
        #expect(!Fixtures.report().html().contains("<script"), "no steps, no script")
    }

    @Test func theSameRunGivesTheSameBytes() {
        #expect(Self.report.html() == Self.report.html())
    }

    @Test func launchTrafficIsFoldedOutOfTheStory() {
        let fold = RoutineFold(Fixtures.report().diagram)
        #expect(fold.routine.messageCount > 0)
        let routine = fold.routine.steps.compactMap { step -> String? in
            if case .message(let message) = step { return message.text }
            return nil
        }
        #expect(routine.allSatisfy { $0.contains("accountStatus") }, "\(routine)")
        let story = fold.story.steps.compactMap { step -> String? in
            if case .message(let message) = step { return message.text }
            return nil
        }
        #expect(story.contains { $0.contains("modifyRecords") })
        #expect(!story.contains { $0.contains("accountStatus") })
        let html = Fixtures.report().html()
        #expect(html.contains("<details id=\"launch-traffic\"><summary>Launch traffic:"))
        #expect(html.contains("routine launch row"))
    }
}

/// A run the harness recorded only the start of: the page steps through that start and says
/// how much it left out.
@Suite struct StepThroughBoundTests {
    @Test func aRecordedStartIsShownWithWhatItLeftOut() throws {
        var run = StepThroughTests.run
        let steps = try #require(run.steps)
        run.steps = StepSnapshots(states: steps.states,
                                  stateOfEvent: Array(steps.stateOfEvent.prefix(10)))
        let report = ScenarioReport(
            path: Fixtures.path, scenario: Fixtures.scenario, source: Fixtures.source, run: run,
            finalState: Fixtures.finalState, ruleTexts: Fixtures.ruleTexts)
        let through = try #require(report.stepThrough)
        #expect(through.events.count == 10)
        #expect(through.omitted == run.events.count - 10)
        #expect(report.html().contains("The run had \(run.events.count - 10) more events than "
            + "the 10 shown here."))
    }
}
