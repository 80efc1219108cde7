import Harness
import Kernel
import Reporting
import Scenario
import SyncContract

extension ScenarioLab {
    /// What `compare(_:)` gives: the story's runs side by side (render it with `terminal()`,
    /// `markdown()`, `html()` or `json()`), or the diagnostics when the story is not valid on
    /// an engine it is written for.
    public struct Comparison: Sendable {
        public let comparison: EngineComparison?
        public let diagnostics: [String]
    }

    /// Runs a story on several of this lab's engines, user engines included, as
    /// `synclab compare` does (docs/FORMAT.md, `engines` and `expect [ENGINE] …`): on
    /// `engines`, else the story's `engines` line, else every engine the story can run on.
    /// An engine the story is not valid on is listed in `notRun`, unless the story is written
    /// for it, which makes its errors the answer.
    public func compare(
        _ source: String, file: String = "inline.scenario", engines chosen: [String]? = nil,
        seed: UInt64? = nil, maxTime: SimTime? = nil, maxEvents: Int? = nil
    ) -> Comparison {
        let own = ScenarioChecker.check(source: source, file: file,
            options: engines.validationOptions(maxTime: maxTime))
        if own.hasErrors {
            return Comparison(comparison: nil,
                              diagnostics: own.diagnostics.map(\.renderedWithNotes))
        }
        let story = own.scenario.header.storyEngines
        let names = chosen ?? (own.scenario.header.isMultiEngine ? story : engines.names)
        var columns: [EngineComparison.Column] = []
        var notRun: [String] = []
        var scenario = own.scenario
        for engine in names {
            guard let profile = engines.profile(named: engine) else {
                return Comparison(comparison: nil, diagnostics: [
                    "\(file): error: unknown engine '\(engine)'; registered: "
                        + engines.names.joined(separator: ", "),
                ])
            }
            let checked = ScenarioChecker.check(source: source, file: file,
                options: engines.validationOptions(engine: engine, maxTime: maxTime))
            if let error = checked.diagnostics.first(where: { $0.severity == .error }) {
                if story.contains(engine) {
                    return Comparison(comparison: nil,
                                      diagnostics: checked.diagnostics.map(\.renderedWithNotes))
                }
                notRun.append("\(engine): \(error.message) (line \(error.location.line))")
                continue
            }
            scenario = checked.scenario
            var options = RunOptions(engines: engines, seed: seed, maxEvents: maxEvents,
                                     maxTime: maxTime)
            options.engine = engine
            let result = ScenarioRunner.run(checked.scenario, source: source, options: options)
            var report = ScenarioReport(
                path: file, scenario: checked.scenario, source: source, result: result,
                finalState: result.finalState, ruleTexts: profile.catalogue.textsByID,
                ruleOrder: profile.catalogue.ids)
            report.engine = engine
            report.command = command
            columns.append(EngineComparison.Column(
                engine: engine, report: report, judged: story.contains(engine),
                weaknessIDs: profile.catalogue.weaknesses.map(\.id)))
        }
        var comparison = EngineComparison(path: file, scenario: scenario, source: source,
                                          columns: columns)
        comparison.notRun = notRun
        comparison.command = command
        return Comparison(comparison: comparison, diagnostics: [])
    }
}
