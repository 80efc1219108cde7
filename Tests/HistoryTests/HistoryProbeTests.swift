import Foundation
import Testing
import TestSupport

/// The probe points history adds are passed where docs/HISTORY.md says (its "One operation
/// and its probe points"), read from the trace of a bundled scenario.
@Suite struct HistoryProbeTests {
    /// The trace's events of a scenario as (kind, details) lines, in order.
    static func trace(of scenario: String) throws -> [String] {
        let folder = try TestSupport.temporaryFolder("history-probes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("trace.jsonl").path
        let result = try TestSupport.runSynclab(["run", scenario, "--trace-out", path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    /// HIS-29: the first operation after a pause, the push, passes `history.backoff.end` right
    /// after its `sync.start`, before the pull is started.
    @Test func backoffEndIsPassedByTheFirstOperationAfterThePause() throws {
        let lines = try Self.trace(
            of: "Scenarios/engines/history/HIS-29-backoff-end-passed-by-the-push.scenario")
        guard let probe = lines.firstIndex(where: {
            $0.contains("\"kind\":\"probe\"") && $0.contains("\"point\":\"history.backoff.end\"")
        }) else {
            Issue.record("history.backoff.end was never passed")
            return
        }
        let starts = lines[..<probe].filter { $0.contains("\"kind\":\"operation.start\"") }
        #expect(starts.last?.contains("\"trigger\":\"backoff-end\",\"phases\":[\"push\"]")
            ?? false, "\(starts.last ?? "no operation")")
        #expect(lines[probe - 1].contains("\"point\":\"sync.start\""), "\(lines[probe - 1])")
        let pullStart = lines.firstIndex {
            $0.contains("\"kind\":\"pull.started\"") && $0.contains("\"trigger\":\"backoff-end\"")
        }
        #expect(pullStart.map { $0 > probe } ?? false)
    }
}
