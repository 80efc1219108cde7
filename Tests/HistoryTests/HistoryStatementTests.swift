import Foundation
import Testing
import TestSupport

/// The statements `history` cannot carry out are refused when a scenario is checked, with an
/// error naming the engine (HIS-42); the ones it supports are accepted.
@Suite struct HistoryStatementTests {
    static func check(_ action: String) throws -> TestSupport.ProcessOutput {
        let name = "history-statements-" + action.replacingOccurrences(of: " ", with: "-")
        let folder = try TestSupport.temporaryFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("refused.scenario").path
        let source = """
            scenario "A statement on history"
            engine history
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            settle
            phone: \(action)
            """
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        return try TestSupport.runSynclab(["check", path])
    }

    @Test(arguments: ["reset-sync-data", "reset-sync-data then delete-all", "initialize-schema"])
    func refused(_ action: String) throws {
        let result = try Self.check(action)
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
        #expect((result.standardOutput + result.standardError).contains("engine 'history'"))
    }

    @Test(arguments: ["sync", "stop", "start"])
    func accepted(_ action: String) throws {
        let result = try Self.check(action)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }
}
