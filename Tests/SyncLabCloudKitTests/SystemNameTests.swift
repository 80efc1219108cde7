import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Apple's names for system fields, system record types, the default zone and a zone-wide
/// share, as the records SyncLab makes carry them.
@Suite struct SystemNameTests {
    @Test func systemFieldKeysAreApplesNames() {
        let keys = [CKRecord.SystemFieldKey.recordID, CKRecord.SystemFieldKey.creationDate,
            CKRecord.SystemFieldKey.modificationDate, CKRecord.SystemFieldKey.creatorUserRecordID,
            CKRecord.SystemFieldKey.lastModifiedUserRecordID, CKRecord.SystemFieldKey.parent,
            CKRecord.SystemFieldKey.share]
        #expect(keys == ["recordID", "creationDate", "modificationDate", "creatorUserRecordID",
            "lastModifiedUserRecordID", "parent", "share"])
    }

    @Test func sharesAndZonesCarryTheNames() {
        let zoneID = CKRecordZone.ID(zoneName: "Lists")
        let root = CKRecord(recordType: "List",
            recordID: CKRecord.ID(recordName: "groceries", zoneID: zoneID))
        #expect(CKShare(rootRecord: root).recordType == CKRecord.SystemType.share)
        #expect(CKRecord.SystemType.share == "cloudkit.share")
        #expect(CKRecord.SystemType.userRecord == "Users")
        #expect(CKShare(recordZoneID: zoneID).recordID.recordName == CKRecordNameZoneWideShare)
        #expect(CKRecordNameZoneWideShare == "cloudkit.zoneshare")
        #expect(CKRecordZoneDefaultName == "_defaultZone")
        #expect(CKRecordZone.ID(zoneName: CKRecordZoneDefaultName) == CKRecordZone.ID.default)
        #expect(CKRecord.ID(recordName: "r").zoneID.zoneName == CKRecordZoneDefaultName)
        #expect(CKRecordZone.ID(zoneName: "Lists").ownerName == CKCurrentUserDefaultName)
    }

    /// A zone-wide share saved to the cloud comes back under Apple's name.
    @Test func aSavedZoneWideShareIsNamedSo() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let container = CKContainer(identifier: "iCloud.test.names")
        let name = try world.device("phone").run {
            let zoneID = CKRecordZone.ID(zoneName: "Lists")
            let database = container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: zoneID))
            let saved = try await database.save(CKShare(recordZoneID: zoneID))
            return "\(saved.recordType) \(saved.recordID.recordName)"
        }
        #expect(name == "\(CKRecord.SystemType.share) \(CKRecordNameZoneWideShare)")
    }
}
