import Foundation
import OSLog
import Testing

/// A file of Apple's samples that imports `OSLog` and calls `os_log` in each of Apple's forms
/// compiles as written and runs; the calls write nothing.
@Suite struct OSLogImportTests {
    static let log = OSLog(subsystem: "com.example.notes", category: "sync")

    @Test func osLogCallsCompileAndRun() {
        let count = 3
        os_log("Sync engine started")
        os_log(.error, "Failed to save a record")
        os_log("%@", log: Self.log, type: .error, "zone not found" as NSString)
        os_log("%d records saved in %@", log: .default, type: .info, count, "Notes" as NSString)
        os_log(.debug, log: Self.log, "%d pending", count)
        os_log("Saved \(count) records")
        os_log(.fault, log: Self.log, "Saved \(count, privacy: .public) records")
        Logger(Self.log).info("Fetched \(count) changes")
        #expect(Self.log.isEnabled(type: .info))
        #expect(!OSLog.disabled.isEnabled(type: .error))
        #expect(OSLogType(rawValue: OSLogType.fault.rawValue) == .fault)
    }
}
