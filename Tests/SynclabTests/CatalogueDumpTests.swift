import Engines
import Foundation
import SyncContract
import TestSupport
import Testing

/// Every bundled engine's catalogue, every field of every rule, matches the dump kept in
/// `Tests/Catalogues/catalogues.dump`, so a change of how catalogues are built cannot change
/// what they hold. Re-recording (`RECORD_SNAPSHOTS=1`) rewrites the file and still fails.
@Suite struct CatalogueDumpTests {
    static let path = "Tests/Catalogues/catalogues.dump"

    @Test func everyCatalogueHoldsExactlyTheDumpedRules() throws {
        let dump = EngineRegistry.bundled.profiles.map(Self.dump).joined()
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            let url = TestSupport.repositoryRoot.appendingPathComponent(Self.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(dump.utf8).write(to: url)
            Issue.record("re-recorded \(Self.path); run again without RECORD_SNAPSHOTS")
            return
        }
        let expected = try TestSupport.read(Self.path)
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = dump.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }
        let line = (first?.offset ?? min(old.count, new.count)) + 1
        let change = first.map { "'\($0.element.0)' became '\($0.element.1)'" } ?? "its length"
        #expect(dump == expected, "\(Self.path) differs at line \(line): \(change)")
    }

    /// One engine's catalogue as lines: its groups, what is enforced at input, then every
    /// field of every rule in catalogue order (newlines inside a field shown as `\n`).
    static func dump(_ profile: EngineProfile) -> String {
        let catalogue = profile.catalogue
        var lines = ["engine \(profile.name)"]
        for (group, title) in catalogue.groupTitles { lines.append("group \(group) — \(title)") }
        lines.append("enforcedAtInput \(list(catalogue.enforcedAtInput.sorted()))")
        for rule in catalogue.rules {
            lines.append("rule \(rule.id)")
            lines.append("  group \(rule.group)")
            lines.append("  text \(escaped(rule.text))")
            lines.append("  choice \(rule.choice.map(escaped) ?? "nil")")
            lines.append("  explains \(list(rule.explains))")
            lines.append("  exempts \(list(rule.exempts))")
            lines.append("  workaround \(rule.workaround.map(escaped) ?? "nil")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Names joined by commas, or `-` for none.
    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "-" : names.joined(separator: ",")
    }

    private static func escaped(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
