import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// A zone the user's encrypted-data reset deleted reaches
/// `recordZoneWithIDWasDeletedDueToUserEncryptedDataResetBlock` instead of the deleted block
/// (the deleted block when the app set no reset block), and `databaseChanges(since:)` gives
/// it the reason `encryptedDataReset`.
@Suite struct EncryptedDataResetBlockTests {
    static let container = CKContainer(identifier: "iCloud.test.resetblock")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")
    static let reset = "cloud: reset-encrypted-data alice zone Notes"

    final class Log: @unchecked Sendable {
        var lines: [String] = []
        var token: CKServerChangeToken?
    }

    /// Makes the zone, keeps the feed's token, runs the cloud `fault`, then fetches the
    /// database changes with an operation (with or without a reset block) and with
    /// `databaseChanges(since:)`.
    static func changes(after fault: String, resetBlock: Bool) throws -> [String] {
        let world = try SimulatedWorld(seed: 5, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let log = Log()
        log.token = try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            return try await database.databaseChanges(since: nil).changeToken
        }
        try world.perform(fault)
        let token = log.token
        try phone.run {
            let operation = CKFetchDatabaseChangesOperation(previousServerChangeToken: token)
            operation.recordZoneWithIDChangedBlock = { log.lines.append("changed \($0.zoneName)") }
            operation.recordZoneWithIDWasDeletedBlock = {
                log.lines.append("deleted \($0.zoneName)")
            }
            operation.recordZoneWithIDWasPurgedBlock = { log.lines.append("purged \($0.zoneName)") }
            if resetBlock {
                operation.recordZoneWithIDWasDeletedDueToUserEncryptedDataResetBlock = {
                    log.lines.append("reset \($0.zoneName)")
                }
            }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        let reasons = try phone.run {
            try await Self.container.privateCloudDatabase.databaseChanges(since: token)
                .deletions.map { "\($0.zoneID.zoneName) \($0.reason) purged \($0.purged)" }
        }
        return log.lines + reasons
    }

    @Test func aResetZoneReachesTheResetBlockOnly() throws {
        let lines = try Self.changes(after: Self.reset, resetBlock: true)
        #expect(lines == ["reset Notes", "Notes encryptedDataReset purged false"])
    }

    @Test func withoutAResetBlockTheResetZoneIsReportedDeleted() throws {
        let lines = try Self.changes(after: Self.reset, resetBlock: false)
        #expect(lines == ["deleted Notes", "Notes encryptedDataReset purged false"])
    }

    @Test func aZoneDeletedOtherwiseDoesNotReachTheResetBlock() throws {
        let deleted = try Self.changes(after: "cloud: delete-zone alice zone Notes",
            resetBlock: true)
        #expect(deleted == ["deleted Notes", "Notes deleted purged false"])
        let purged = try Self.changes(after: "cloud: user-delete-zone alice zone Notes",
            resetBlock: true)
        #expect(purged == ["purged Notes", "Notes purged purged true"])
    }
}
