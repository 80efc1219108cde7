import Foundation

/// Scenario files the tests read: the fixtures beside the tests and the repository's
/// `Scenarios/` folder, found from this file's path so no resources need declaring.
///
/// The fixtures live in `.fixtures/`, a hidden folder, because SwiftPM warns about files it
/// does not handle in a visible folder of a target, and the build must stay warning-free.
enum Fixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()

    static let fixturesDirectory = testsDirectory.appendingPathComponent(".fixtures")

    /// The package's root: `Tests/ScenarioTests/` is two levels below it.
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    static let repositoryScenarios = repository.appendingPathComponent("Scenarios")

    /// The text of `.fixtures/NAME.scenario`.
    static func text(_ name: String) throws -> String {
        let url = fixturesDirectory.appendingPathComponent(name + ".scenario")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Every `.scenario` file under the fixtures and the repository's `Scenarios/`, sorted.
    static func allScenarioFiles() -> [URL] {
        var found: [URL] = []
        for root in [fixturesDirectory, repositoryScenarios] {
            guard let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: nil)
            else { continue }
            for case let url as URL in enumerator where url.pathExtension == "scenario" {
                found.append(url)
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}
