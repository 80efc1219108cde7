import Engines
import Harness
import SDS
import Scenario
import SyncContract
import TestSupport
import Testing

/// The known races (LIM-1..5) are reproducible on demand: each limitation scenario passes
/// for every seed from 1 to 100, and fails once the mechanism behind its race is switched
/// off — so it shows the race, not a lucky timing.
@Suite struct LimitationTests {
    static let files = TestSupport.scenarioFiles(under: "Scenarios/limitations")

    private static func run(_ path: String, options: RunOptions) throws -> RunResult {
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        #expect(!checked.hasErrors, "\(checked.diagnostics.map(\.rendered))")
        return ScenarioRunner.run(checked.scenario, source: source, options: options)
    }

    @Test func everyLimitationHasAScenarioAndAContrast() {
        for id in ["LIM-1", "LIM-2", "LIM-3", "LIM-4", "LIM-5", "DR-1", "DR-2", "DR-3", "DR-4",
                   "DR-5", "DR-6",
                   "DR-7", "DR-8", "DR-9"] {
            let mine = Self.files.filter { $0.contains("/\(id)-") }
            #expect(mine.contains { !$0.contains("-contrast-") }, "\(id) has no scenario")
            #expect(mine.contains { $0.contains("-contrast-") }, "\(id) has no contrast scenario")
        }
    }

    @Test(arguments: files)
    func passesForSeedsOneToAHundred(_ path: String) throws {
        for seed in UInt64(1)...100 {
            let result = try Self.run(path, options: RunOptions(engines: .bundled, seed: seed, recordTrace: false))
            let failed = result.expectations.filter { !$0.passed }.map { "line \($0.line): \($0.found)" }
            #expect(result.passed, "\(path) --seed \(seed): \(result.failure?.description ?? "") \(failed)")
            if !result.passed { break }
        }
    }

    /// Each race scenario with the mechanism that makes the race possible switched off.
    static let withoutMechanism: [(String, String)] = [
        ("LIM-1-edit-after-remote-delete", "cloud recreation"),
        ("LIM-2-identity-created-during-download", "matching before storing"),
        ("LIM-3-move-not-uploaded-deleted-everywhere", "cascaded deletions uploaded"),
        ("LIM-3-move-uploaded-kept-apart", "records kept aside"),
        ("LIM-4-expired-token-misses-deletions", "tokenless fetch without deletions"),
        ("LIM-5-removal-waits-for-rejected-update", "deletions wait for moves"),
    ]

    @Test(arguments: withoutMechanism)
    func failsWithoutItsMechanism(_ name: String, _ mechanism: String) throws {
        var options = RunOptions(engines: .bundled, recordTrace: false)
        switch mechanism {
        case "cloud recreation": options.cloudRecreatesDeletedRecords = false
        case "matching before storing": options.mechanisms["matchesPageBeforeStoring"] = false
        case "cascaded deletions uploaded": options.mechanisms["uploadsDeletionsOfCascadedChangedModels"] = false
        case "records kept aside": options.mechanisms["keepsRecordsWithMissingReferencesAside"] = false
        case "tokenless fetch without deletions": options.cloudTokenlessFetchOmitsDeletions = false
        default: options.mechanisms["deletionsWaitForMoves"] = false
        }
        let path = "Scenarios/limitations/\(name).scenario"
        let normal = try Self.run(path, options: RunOptions(engines: .bundled, recordTrace: false))
        #expect(normal.passed, "\(path) should pass with every mechanism on")
        let broken = try Self.run(path, options: options)
        #expect(!broken.passed, "\(path) still passes without \(mechanism): it does not show the race")
    }
}
