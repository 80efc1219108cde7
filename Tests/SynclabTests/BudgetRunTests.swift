import Engines
import Harness
import Kernel
import Scenario
import SyncContract
import Testing

/// Issue 11 item 10, in process: the harness runs with the file's budgets unless the
/// options override them, and a budget failure names the budget and how to raise it.
@Suite struct BudgetRunTests {
    static func scenario(_ budget: String) -> (ScenarioFile, String) {
        let source = """
            scenario "Budgets"
            \(budget)
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            phone: insert Note n1 title="a"
            settle
            expect converged

            """
        let checked = ScenarioChecker.check(
            source: source, file: "b.scenario", options: EngineRegistry.bundled.validationOptions())
        #expect(!checked.hasErrors, "\(checked.diagnostics)")
        return (checked.scenario, source)
    }

    @Test func theFileBudgetIsUsedAndNamed() {
        let (scenario, source) = Self.scenario("budget events 20")
        #expect(RunOptions(engines: .bundled).budget(for: scenario) == Budget(maxTime: .hours(720), maxEvents: 20))
        let result = ScenarioRunner.run(scenario, source: source, options: RunOptions(engines: .bundled))
        #expect(result.failure?.message.hasPrefix(
            "budget exceeded: the run's event budget of 20 events was used up") == true)
        #expect(result.failure?.message.hasSuffix(
            "raise it with 'budget events N' in the scenario or '--max-events N'") == true)
        #expect((9...10).contains(result.failure?.line ?? 0))
    }

    @Test func optionsOverrideTheFile() {
        let (scenario, source) = Self.scenario("budget events 20")
        let raised = ScenarioRunner.run(scenario, source: source, options: RunOptions(engines: .bundled, maxEvents: 100_000))
        #expect(raised.passed)
        let (timed, timedSource) = Self.scenario("budget time 90d")
        #expect(RunOptions(engines: .bundled).budget(for: timed).maxTime == .hours(90 * 24))
        let short = ScenarioRunner.run(timed, source: timedSource, options: RunOptions(engines: .bundled, maxTime: .seconds(1)))
        #expect(short.failure?.message.contains("the run would pass its time budget of 1s") == true)
    }

    @Test func theDefaultsAreThirtyDaysAndTwoMillionEvents() {
        let (scenario, _) = Self.scenario("")
        #expect(RunOptions(engines: .bundled).budget(for: scenario) == Budget(maxTime: .hours(720), maxEvents: 2_000_000))
    }
}
