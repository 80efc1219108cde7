import Engines
import Harness
import Scenario
import SyncContract
import TestSupport
import Testing

/// Every bundled scenario is valid and passes: the repository's own examples are its
/// first regression suite.
@Suite struct BundledScenarioTests {
    static let files = TestSupport.scenarioFiles()

    @Test func thereAreBundledScenarios() {
        #expect(Self.files.count >= 4, "Scenarios/ should hold the tour at least")
    }

    @Test(arguments: files)
    func bundledScenarioPasses(_ path: String) throws {
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics.map(\.rendered))")
        guard !checked.hasErrors else { return }
        let result = ScenarioRunner.run(checked.scenario, source: source, options: RunOptions(engines: .bundled))
        #expect(result.failure == nil, "\(path): \(result.failure?.description ?? "")")
        for expectation in result.expectations where !expectation.passed {
            Issue.record("\(path):\(expectation.line): expectation failed: \(expectation.wanted); found: \(expectation.found)")
        }
        #expect(!result.expectations.isEmpty, "\(path) checks nothing")
    }
}
