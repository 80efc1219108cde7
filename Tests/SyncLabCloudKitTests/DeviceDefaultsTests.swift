@testable import CloudKit
import Foundation
import Testing

/// Foundation on Linux hangs reading an empty preferences file, so the swap removes one first.
@Suite struct DeviceDefaultsTests {
    @Test func anEmptyPreferencesFileIsRemovedAndAWrittenOneIsKept() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("device-defaults-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("kCFPreferencesCurrentApplication.plist")
        let written = folder.appendingPathComponent("written.plist")
        try Data().write(to: empty)
        try Data("<plist/>".utf8).write(to: written)
        #expect(DeviceDefaults.removeIfEmpty(empty))
        #expect(!FileManager.default.fileExists(atPath: empty.path))
        #expect(!DeviceDefaults.removeIfEmpty(written))
        #expect(FileManager.default.fileExists(atPath: written.path))
        #expect(!DeviceDefaults.removeIfEmpty(empty))
    }
}
