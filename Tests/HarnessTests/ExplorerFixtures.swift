import Engines
import Foundation
import SyncContract
@testable import Harness
import Scenario
import Testing
import TestSupport

/// Chaos files and helpers shared by the explorer's tests.
enum ExplorerFixtures {
    /// Two devices editing notes, with offline and kill faults: small enough for debug runs.
    static let notes = """
        scenario "Notes under faults"
        entity Note {
          title: String = ""
          body: String?
        }
        account alice
        device phone on alice
        device laptop on alice
        chaos workload 20 operations on Note every 200ms..2s
        chaos fault offline 10% for 1s..20s
        chaos fault kill 5%
        chaos fault sync 5%
        """

    /// One device alone cannot race anyone: every run is clean.
    static let lonely = """
        scenario "One device alone"
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        chaos workload 10 operations every 200ms..1s
        """

    /// The tree of a chaos text that must check clean.
    static func scenario(_ source: String, file: String = "test.chaos") -> ScenarioFile {
        let checked = ScenarioChecker.check(
            source: source, file: file, options: EngineRegistry.bundled.validationOptions())
        #expect(checked.diagnostics.map(\.rendered) == [])
        return checked.scenario
    }

    static func explorer(_ source: String, options: ExploreOptions = ExploreOptions(engines: .bundled)) -> Explorer {
        Explorer(scenario: scenario(source), source: source, options: options)
    }

    /// A bundled chaos file of `Scenarios/explore/`.
    static func bundled(_ name: String, options: ExploreOptions = ExploreOptions(engines: .bundled)) throws
        -> Explorer
    {
        let path = "Scenarios/explore/\(name)"
        let source = try TestSupport.read(path)
        let checked = ScenarioChecker.check(
            source: source, file: path, options: EngineRegistry.bundled.validationOptions())
        #expect(checked.diagnostics.map(\.rendered) == [])
        return Explorer(scenario: checked.scenario, source: source, options: options)
    }

    /// Every bundled chaos file, sorted.
    static var bundledFiles: [String] {
        let folder = TestSupport.repositoryRoot.appendingPathComponent("Scenarios/explore")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".chaos") }.sorted()
    }
}
