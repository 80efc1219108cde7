import Foundation
import TestSupport
import Testing

/// `Reports/` holds the Markdown reports of every bundled scenario, exactly as the current
/// code writes them. Re-recording (`RECORD_SNAPSHOTS=1 swift test`) rewrites the folder and
/// still fails that run, so a change of reports is always a deliberate commit.
@Suite struct ReportsGoldenTests {
    @Test func committedReportsMatchWhatTheCodeWrites() throws {
        let folder = try TestSupport.temporaryFolder("reports")
        let output = try TestSupport.runSynclab(["report", "Scenarios", "--out", folder.path])
        #expect(output.status == 0, "synclab report failed: \(output.standardError)")
        let committed = TestSupport.repositoryRoot.appendingPathComponent("Reports")
        let written = try files(below: folder)
        let expected = try files(below: committed)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            // The comparison pages (`synclab compare`, CompareReportsGoldenTests) stay.
            let kept = try comparisonPages(below: committed)
            try? FileManager.default.removeItem(at: committed)
            try FileManager.default.copyItem(at: folder, to: committed)
            for (name, text) in kept {
                try Data(text.utf8).write(to: committed.appendingPathComponent(name))
            }
            Issue.record("re-recorded Reports/ (\(written.count) files); run again without RECORD_SNAPSHOTS")
            return
        }
        #expect(written.keys.sorted() == expected.keys.sorted(), "the set of reports differs")
        for path in written.keys.sorted() {
            guard let old = expected[path], let new = written[path] else { continue }
            if old != new {
                Issue.record("Reports/\(path) differs from what the code writes: \(firstDifference(old, new))")
            }
        }
    }

    private func files(below root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let names = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        for name in names where name.hasSuffix(".md") && !Self.isComparisonPage(name) {
            result[name] = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        }
        return result
    }

    /// `Reports/compare/README.md` and the `*.compare.md` pages are `synclab compare`'s.
    static func isComparisonPage(_ name: String) -> Bool {
        name.hasSuffix(".compare.md") || name == "compare/README.md"
    }

    private func comparisonPages(below root: URL) throws -> [(String, String)] {
        let names = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        return try names.filter(Self.isComparisonPage).sorted().map {
            ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    private func firstDifference(_ old: String, _ new: String) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(oldLines.count, newLines.count) {
            let before = index < oldLines.count ? String(oldLines[index]) : "<end>"
            let after = index < newLines.count ? String(newLines[index]) : "<end>"
            if before != after { return "line \(index + 1):\n- \(before)\n+ \(after)" }
        }
        return "no line differs"
    }
}
