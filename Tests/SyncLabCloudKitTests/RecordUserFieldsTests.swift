import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Who created and last changed a record: nil before its first save; in the user's own zone,
/// the current user by its default name, as CloudKit answers there.
@Suite struct RecordUserFieldsTests {
    static let container = CKContainer(identifier: "iCloud.test.users")

    @Test func aSavedRecordOfTheUsersOwnZoneNamesTheDefaultOwner() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice"), ("laptop", "alice")])
        let zoneID = CKRecordZone.ID(zoneName: "Notes")
        let fresh = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "n1",
            zoneID: zoneID))
        #expect(fresh.creatorUserRecordID == nil && fresh.lastModifiedUserRecordID == nil)
        let saved = try world.device("phone").run { () -> CKRecord in
            let database = Self.container.privateCloudDatabase
            _ = try await database.save(CKRecordZone(zoneID: zoneID))
            fresh["title"] = "milk"
            return try await database.save(fresh)
        }
        #expect(saved.creatorUserRecordID?.recordName == CKCurrentUserDefaultName)
        #expect(saved.lastModifiedUserRecordID?.recordName == CKCurrentUserDefaultName)
        let fetched = try world.device("laptop").run {
            try await Self.container.privateCloudDatabase.record(for: saved.recordID)
        }
        #expect(fetched.creatorUserRecordID == saved.creatorUserRecordID)
        #expect(fetched.lastModifiedUserRecordID == saved.lastModifiedUserRecordID)
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        saved.encodeSystemFields(with: archiver)
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        let restored = try #require(CKRecord(coder: unarchiver))
        #expect(restored.creatorUserRecordID == saved.creatorUserRecordID,
                "system fields keep who created the record")
        #expect(restored.lastModifiedUserRecordID == saved.lastModifiedUserRecordID)
    }
}
