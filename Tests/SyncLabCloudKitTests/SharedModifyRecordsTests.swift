import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `modifyRecords` in the shared database across zones as a participant sees it: each zone is
/// its own request; a zone the participant cannot write fails its own items only, and the
/// other zone's results come back (Apple reports such failures per item).
@Suite struct SharedModifyRecordsTests {
    static let container = SharingTests.container

    @Test func aZoneNotSharedFailsItsItemsOnly() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice"), ("laptop", "bob")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (url, _) = try SharingTests().share(on: phone)
        try phone.run {
            try await Self.container.privateCloudDatabase.save(CKRecordZone(zoneName: "Private"))
        }
        let lines = try laptop.run { () -> [String] in
            let share = try await Self.container.accept(
                try await Self.container.shareMetadata(for: url))
            let lists = share.recordID.zoneID
            let other = CKRecordZone.ID(zoneName: "Private", ownerName: lists.ownerName)
            let item = CKRecord(recordType: "Item",
                recordID: CKRecord.ID(recordName: "milk", zoneID: lists))
            item["title"] = "Milk"
            // In the shared hierarchy: a child of the shared root.
            item.setParent(CKRecord.ID(recordName: "groceries", zoneID: lists))
            let secret = CKRecord(recordType: "Item",
                recordID: CKRecord.ID(recordName: "secret", zoneID: other))
            let results = try await Self.container.sharedCloudDatabase.modifyRecords(
                saving: [item, secret], deleting: [])
            return results.saveResults.map { id, result in
                switch result {
                case .success: return "\(id.recordName) saved"
                case .failure(let error):
                    return "\(id.recordName) \((error as? CKError)?.code.rawValue ?? -1)"
                }
            }.sorted()
        }
        #expect(lines.count == 2)
        #expect(lines.first == "milk saved")
        #expect(lines.last?.hasPrefix("secret ") == true)
        #expect(world.cloudRecords(zoneName: "Lists", account: "alice")
            .map(\.recordID.recordName).contains("milk"))
    }
}

/// Who created and last changed a shared record, as each side reads it: the current user as
/// `__defaultOwner__`, the other by the user record ID `CKContainer.userRecordID()` gives them.
@Suite struct SharedRecordUsersTests {
    static let container = SharingTests.container

    @Test func aParticipantsChangeNamesBothUsers() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice"), ("laptop", "bob")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (url, _) = try SharingTests().share(on: phone)
        let alice = try phone.run { try await Self.container.userRecordID().recordName }
        let (bob, seen) = try laptop.run { () -> (String, [String?]) in
            let share = try await Self.container.accept(
                try await Self.container.shareMetadata(for: url))
            let id = CKRecord.ID(recordName: "groceries", zoneID: share.recordID.zoneID)
            let database = Self.container.sharedCloudDatabase
            let root = try await database.record(for: id)
            let before = [root.creatorUserRecordID?.recordName,
                          root.lastModifiedUserRecordID?.recordName]
            root["title"] = "Groceries!"
            let saved = try await database.modifyRecords(saving: [root], deleting: [])
            let after = try saved.saveResults[id]?.get()
            return (try await Self.container.userRecordID().recordName,
                    before + [after?.creatorUserRecordID?.recordName,
                              after?.lastModifiedUserRecordID?.recordName])
        }
        #expect(seen == [alice, alice, alice, CKCurrentUserDefaultName])
        #expect(alice != bob && alice != CKCurrentUserDefaultName)
        let owner = try phone.run { () -> [String?] in
            let zone = CKRecordZone.ID(zoneName: "Lists")
            let root = try await Self.container.privateCloudDatabase.record(
                for: CKRecord.ID(recordName: "groceries", zoneID: zone))
            return [root.creatorUserRecordID?.recordName, root.lastModifiedUserRecordID?.recordName]
        }
        #expect(owner == [CKCurrentUserDefaultName, bob])
    }
}
