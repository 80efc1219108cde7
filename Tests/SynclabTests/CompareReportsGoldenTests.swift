import Foundation
import TestSupport
import Testing

/// `Reports/compare/` holds `synclab compare Scenarios/compare --engines all --format markdown
/// --out Reports/compare` exactly as the current code writes it: the overview (README.md) and one
/// side-by-side page per story. Re-record with `RECORD_SNAPSHOTS=1 swift test --filter
/// CompareReportsGoldenTests` (which still fails that run), then review the diff. The pages
/// are written to a scratch folder, so `--link-root ../..` gives their links to the
/// catalogue pages the way from `Reports/compare` that the command computes there.
@Suite struct CompareReportsGoldenTests {
    @Test func committedComparisonsMatchWhatTheCodeWrites() throws {
        let folder = try TestSupport.temporaryFolder("compare")
        let output = try TestSupport.runSynclab(
            ["compare", "Scenarios/compare", "--engines", "all", "--format", "markdown",
             "--out", folder.path, "--link-root", "../.."])
        #expect(output.status == 0, "synclab compare failed: \(output.standardOutput)\(output.standardError)")
        let committed = TestSupport.repositoryRoot.appendingPathComponent("Reports/compare")
        let written = try pages(below: folder)
        #expect(written.count > 10)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            for (name, text) in written {
                try Data(text.utf8).write(to: committed.appendingPathComponent(name))
            }
            Issue.record("re-recorded Reports/compare (\(written.count) pages); run again without RECORD_SNAPSHOTS")
            return
        }
        let expected = try pages(below: committed)
        #expect(written.keys.sorted() == expected.keys.sorted(), "the set of comparison pages differs")
        for name in written.keys.sorted() where expected[name] != written[name] {
            Issue.record("Reports/compare/\(name) differs from what the code writes")
        }
    }

    private func pages(below root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where ReportsGoldenTests.isComparisonPage("compare/" + name) {
            result[name] = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        }
        return result
    }
}
