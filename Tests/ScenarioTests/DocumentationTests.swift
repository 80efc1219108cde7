import Foundation
import Testing

/// docs/FORMAT.md lists every diagnostic ID the catalogue can produce.
@Suite struct DocumentationTests {
    @Test func everyDiagnosticIDIsDocumented() throws {
        let catalogue = try String(
            contentsOf: Fixtures.repository.appendingPathComponent(
                "Sources/Scenario/DiagnosticMessages.swift"),
            encoding: .utf8)
        let format = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/FORMAT.md"),
            encoding: .utf8)
        var ids: [String] = []
        for part in catalogue.components(separatedBy: "id: \"").dropFirst() {
            ids.append(String(part.prefix { $0 != "\"" }))
        }
        // IDs built from a kind by `duplicateDeclaration` and `unknownName`.
        ids += ["duplicate-entity", "duplicate-property", "duplicate-account", "duplicate-device",
            "duplicate-key", "duplicate-sync-list-entry", "duplicate-identity-attribute",
            "unknown-device", "unknown-account", "unknown-entity", "unknown-probe-point",
            "unknown-rule", "unknown-engine"]
        #expect(ids.count > 60)
        for id in ids where !id.isEmpty && !id.contains("\\") {
            #expect(format.contains("`\(id)`"), "\(id) is not in docs/FORMAT.md")
        }
    }
}
