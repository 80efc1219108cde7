import Foundation
import Testing

/// Golden files under `.snapshots/`, compared byte for byte with a line diff on mismatch.
///
/// `RECORD_SNAPSHOTS=1 swift test` writes the new text and still fails, so re-recording is
/// always a visible, deliberate step. The folder is hidden because SwiftPM warns about every
/// file of a target it does not compile unless Package.swift excludes it, and hidden folders
/// are the ones it skips on its own.
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent(".snapshots")

    static func expectMatches(
        _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = folder.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        let expected = try? String(contentsOf: url, encoding: .utf8)
        if expected == actual { return }
        if recording || expected == nil {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            Issue.record("recorded snapshot \(name); run the tests again",
                         sourceLocation: sourceLocation)
            return
        }
        let diff = lineDiff(expected ?? "", actual)
        Issue.record("snapshot \(name) differs (RECORD_SNAPSHOTS=1 re-records):\n\(diff)",
                     sourceLocation: sourceLocation)
    }

    /// A unified-style diff of two texts by lines (`-` expected, `+` actual), with two
    /// lines of context, from a longest-common-subsequence table.
    static func lineDiff(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var table = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1),
                            count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j]
                    ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var lines: [(mark: Character, text: Substring)] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append((" ", old[i])); i += 1; j += 1
            } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
                lines.append(("+", new[j])); j += 1
            } else {
                lines.append(("-", old[i])); i += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].mark != " " }
        let shown = Set(changed.flatMap { max(0, $0 - 2)...min(lines.count - 1, $0 + 2) })
        return lines.indices.filter { shown.contains($0) }
            .map { "\(lines[$0].mark)\(lines[$0].text)" }.joined(separator: "\n")
    }
}
