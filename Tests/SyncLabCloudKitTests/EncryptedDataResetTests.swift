import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// After the user resets their encrypted data, CloudKit answers a request on the deleted zone
/// with `zoneNotFound` and `CKErrorUserDidResetEncryptedDataKey` (an `NSNumber` true) in its
/// `userInfo`, so the app re-creates the zone and uploads its copy.
@Suite struct EncryptedDataResetTests {
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    static func database() -> CKDatabase {
        CKContainer(identifier: "iCloud.test.reset").privateCloudDatabase
    }

    /// Saves a note in a zone of its own, then saves another and returns the save's error.
    static func saveError(resetting: Bool) throws -> CKError? {
        let world = try SimulatedWorld(seed: 4, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try phone.run {
            _ = try await Self.database().modifyRecordZones(
                saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
        }
        try world.perform(resetting ? "cloud: reset-encrypted-data alice"
            : "cloud: delete-zone alice")
        return try phone.run { () -> CKError? in
            let note = CKRecord(recordType: "Note",
                recordID: CKRecord.ID(recordName: "n1", zoneID: Self.zoneID))
            do {
                _ = try await Self.database().save(note)
                return nil
            } catch let error as CKError {
                return error
            }
        }
    }

    @Test func aZoneNotFoundAfterTheResetCarriesTheKey() throws {
        let error = try #require(try Self.saveError(resetting: true))
        #expect(error.code == .zoneNotFound)
        #expect((error.userInfo[CKErrorUserDidResetEncryptedDataKey] as? NSNumber)?.boolValue
            == true)
        let bridged = error as NSError
        #expect(bridged.code == CKError.Code.zoneNotFound.rawValue)
        #expect((bridged.userInfo[CKErrorUserDidResetEncryptedDataKey] as? NSNumber)?.boolValue
            == true)
    }

    @Test func aZoneDeletedOtherwiseHasNoKey() throws {
        let error = try #require(try Self.saveError(resetting: false))
        #expect(error.code == .zoneNotFound)
        #expect(error.userInfo[CKErrorUserDidResetEncryptedDataKey] == nil)
    }
}
