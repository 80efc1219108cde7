import Kernel
import Scenario

/// Runs a written scenario as `synclab run` would (with the same canary, if any), to check
/// that a shrunk finding fails as a plain scenario.
enum PlainReplay {
    /// Whether the text checks clean and its run fails: an expectation or a runtime failure.
    static func fails(text: String, file: String, seed: UInt64, options: ExploreOptions) -> Bool {
        let checked = ScenarioChecker.check(
            source: text, file: file, options: options.validationOptions)
        guard !checked.hasErrors, !checked.scenario.chaos.isDeclared else { return false }
        let scenario = checked.scenario
        var runOptions = options.runOptions(seed: seed, scenario: scenario)
        runOptions.recordTrace = false
        let world = World(scenario: scenario, seed: seed, options: runOptions)
        options.canary?.install(in: world, pageSize: scenario.cloud.pageSize, options: runOptions)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var results: [ExpectationResult] = []
        world.start()
        world.run(until: .zero)
        for statement in scenario.timeline where world.failure == nil {
            let index = statement.line - 1
            let line = index < lines.count ? ScenarioRunner.statementText(lines[index]) : ""
            world.run(statement, results: &results, text: line)
        }
        return world.failure != nil || results.contains { !$0.passed }
    }
}
