import Foundation
import Testing
import TestSupport
import Kernel

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
        let events = lines.compactMap { TraceEvent.decoded($0) }
        #expect(events.count == lines.count)
        guard let probe = events.firstIndex(where: {
            $0.kind == "probe" && $0.string("point") == "history.backoff.end"
        }) else {
            Issue.record("history.backoff.end was never passed")
            return
        }
        let start = events[..<probe].last { $0.kind == "operation.start" }
        #expect(start?.string("trigger") == "backoff-end", "\(start?.jsonLine ?? "no operation")")
        #expect(start?[detail: "phases"] == .list(["push"]))
        #expect(events[probe - 1].string("point") == "sync.start", "\(events[probe - 1].jsonLine)")
        let pullStart = events.firstIndex {
            $0.kind == "pull.started" && $0.string("trigger") == "backoff-end"
        }
        #expect(pullStart.map { $0 > probe } ?? false)
    }
}
