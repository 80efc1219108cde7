import Harness
import Kernel
import Scenario

/// Everything one scenario's report says, ready to render as Markdown or HTML.
///
/// It is built from the scenario, its source, the run and the final state, and holds no
/// wall clock, host or absolute path: the same inputs give the same bytes.
public struct ScenarioReport: Sendable {
    /// The scenario's path as given on the command line (relative, so reports move).
    public var path: String
    /// The command a reader reruns it with: `synclab`, or the executable of the lab that
    /// made it, which knows the lab's engines.
    public var command = "synclab"
    public var title: String
    /// The `about` texts in file order.
    public var about: [String]
    public var seed: UInt64
    public var engine: String
    public var setup: SetupSummary
    public var diagram: SequenceDiagram
    /// nil when the run did not provide it.
    public var finalState: [StateTable]?
    public var expectations: [ExpectationResult]
    /// The engine each expectation of the file is scoped to (nil: every engine), in file
    /// order: what a run that reached its end would have checked.
    public var expectationScopes: [String?]
    public var failure: RuntimeFailure?
    public var leftovers: [String]
    public var rules: [RuleTally]
    /// Simulated time at the end, in microseconds.
    public var endTime: Int64
    /// Events the trace holds (the diagram may show fewer).
    public var eventCount: Int
    /// The limits the diagram was summarised to; renderers cut labels to them too.
    public var limits: DiagramLimits
    /// What happened, in a few facts, for the top of the report.
    public var outcome: OutcomeSummary
    /// The run event by event with the world after each; nil when the run took no snapshots.
    public var stepThrough: StepThrough?

    /// - Parameters:
    ///   - ruleTexts: rule ID → the catalogue's text; a rule missing here shows its ID only.
    ///   - ruleOrder: rule IDs in the catalogue's order, for the list of rules that fired;
    ///     IDs it lacks follow in ID order (`SYNC-2` before `SYNC-10`).
    ///   - finalState: the devices' and the cloud's state at the end, if known.
    ///   - weaknessIDs: the catalogue's rules that are weaknesses (`Rule.explains`).
    public init(
        path: String, scenario: ScenarioFile, source: String, run: ReportedRun,
        finalState: FinalState?, ruleTexts: [String: String], ruleOrder: [String] = [],
        weaknessIDs: [String] = [], limits: DiagramLimits = .standard
    ) {
        self.path = path
        title = scenario.header.title?.value ?? path
        about = scenario.header.about.map(\.value)
        seed = run.seed
        engine = scenario.header.effectiveEngine
        setup = SetupSummary(scenario)
        diagram = SequenceBuilder.diagram(
            scenario: scenario, events: run.events, source: SourceLines(source),
            labels: finalState?.labels ?? [], limits: limits)
        self.finalState = finalState.map { StateTable.tables($0, scenario: scenario) }
        expectations = run.expectations
        expectationScopes = scenario.timeline.compactMap { statement in
            guard case .expectation(let expectation) = statement.kind else { return nil }
            return .some(expectation.engine?.value)
        }
        failure = run.failure
        leftovers = run.leftovers
        rules = RuleTally.tally(
            run.events, ruleTexts: ruleTexts, order: diagram.participants, ruleOrder: ruleOrder)
        endTime = run.endTime.microseconds
        eventCount = run.events.count
        self.limits = limits
        outcome = OutcomeSummary(
            events: run.events, source: SourceLines(source), finalState: self.finalState,
            rules: rules, weaknessIDs: Set(weaknessIDs), expectations: run.expectations)
        stepThrough = StepThrough(
            events: run.events, steps: run.steps, scenario: scenario,
            labels: finalState?.labels ?? [])
    }

    /// The report of a harness run.
    public init(
        path: String, scenario: ScenarioFile, source: String, result: RunResult,
        finalState: FinalState?, ruleTexts: [String: String], ruleOrder: [String] = [],
        weaknessIDs: [String] = [], limits: DiagramLimits = .standard
    ) {
        self.init(
            path: path, scenario: scenario, source: source, run: ReportedRun(result),
            finalState: finalState, ruleTexts: ruleTexts, ruleOrder: ruleOrder,
            weaknessIDs: weaknessIDs, limits: limits)
    }

    /// Every expectation held and the run did not fail.
    public var passed: Bool { failure == nil && expectations.allSatisfy(\.passed) }

    public var heldCount: Int { expectations.filter(\.passed).count }

    /// The expectations of this report's engine that the run never checked (a runtime
    /// failure ends it first).
    public var notReachedCount: Int {
        let planned = expectationScopes.filter { $0 == nil || $0 == engine }.count
        return max(0, planned - expectations.count)
    }

    /// `9 of 9 expectations held`, plus those not reached and the runtime failure.
    public var outcomeText: String {
        let notReached = notReachedCount
        var text = "\(heldCount) of \(expectations.count + notReached) expectations held"
        if notReached > 0 { text += ", \(notReached) not reached" }
        if failure != nil { text += ", runtime failure" }
        return text
    }

    /// The Markdown report with a Mermaid sequence diagram.
    public func markdown() -> String {
        MarkdownReport(report: self).render()
    }

    /// The self-contained HTML report with an inline SVG sequence diagram.
    public func html() -> String {
        HTMLReport(report: self).render()
    }

    /// This report's line in an index, for a report written at `reportPath` (relative to
    /// the index).
    public func indexEntry(reportPath: String) -> ReportIndex.Entry {
        ReportIndex.Entry(
            reportPath: reportPath, scenarioPath: path, title: title, passed: passed,
            held: heldCount, expectations: expectations.count, runtimeFailure: failure != nil)
    }
}
