import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKShare` on the driver: the owner shares a record with another account, the participant
/// accepts from the URL and reads the record in its shared database.
@Suite(.serialized) struct SharingTests {
    static let container = CKContainer(identifier: "iCloud.test.sharing")
    static let zoneID = CKRecordZone.ID(zoneName: "Lists")

    struct Failure: Error {}

    /// Alice's phone shares its list with bob (read-write); returns the share's URL and
    /// participants as `account:role:status`.
    func share(on phone: SimulatedDevice) throws -> (URL, [String]) {
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            let root = CKRecord(recordType: "List",
                recordID: CKRecord.ID(recordName: "groceries", zoneID: Self.zoneID))
            root["title"] = "Groceries"
            let share = CKShare(rootRecord: root)
            share[CKShare.SystemFieldKey.title] = "Groceries"
            let results = try await database.modifyRecords(saving: [root, share], deleting: [])
            guard let saved = try results.saveResults[share.recordID]?.get() as? CKShare
            else { throw Failure() }
            let bob = try await Self.container.shareParticipant(forEmailAddress: "bob")
            bob.permission = .readWrite
            saved.addParticipant(bob)
            guard let invited = try await database.save(saved) as? CKShare, let url = invited.url
            else { throw Failure() }
            return (url, invited.participants.map(Self.describe))
        }
    }

    static func describe(_ participant: CKShare.Participant) -> String {
        "\(participant.userIdentity.lookupInfo?.emailAddress ?? "?"):\(participant.role.rawValue)"
            + ":\(participant.acceptanceStatus.rawValue)"
    }

    @Test func aParticipantAcceptsFromTheURLAndReadsTheSharedRecord() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice"), ("laptop", "bob")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (url, invited) = try share(on: phone)
        #expect(url.absoluteString == "https://www.icloud.com/share/alice/Lists/Share-groceries")
        #expect(invited == ["alice:1:2", "bob:3:1"])
        let accepted = try laptop.run {
            let metadata = try await Self.container.shareMetadata(for: url)
            let share = try await Self.container.accept(metadata)
            return share.participants.map(Self.describe)
        }
        #expect(accepted == ["alice:1:2", "bob:3:2"])
        let title = try laptop.run { () -> String? in
            let shared = Self.container.sharedCloudDatabase
            let zones = try await shared.allRecordZones()
            guard let zone = zones.first(where: { $0.zoneID.zoneName == "Lists" }) else {
                return nil
            }
            let record = try await shared.record(for: CKRecord.ID(recordName: "groceries",
                zoneID: zone.zoneID))
            return record["title"] as? String
        }
        #expect(title == "Groceries")
    }

    @Test func aStrangerCannotAcceptAndTheOwnerCanRemoveAParticipant() throws {
        let world = try SimulatedWorld(seed: 1, devices: [
            ("phone", "alice"), ("laptop", "bob"), ("tablet", "carol"),
        ])
        let (url, _) = try share(on: world.device("phone"))
        let refused = #expect(throws: CKError.self) {
            try world.device("tablet").run {
                let metadata = try await Self.container.shareMetadata(for: url)
                _ = try await Self.container.accept(metadata)
            }
        }
        #expect(refused != nil)
        let left = try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            guard let share = try await database.record(for: CKRecord.ID(
                recordName: "Share-groceries", zoneID: Self.zoneID)) as? CKShare,
                let bob = share.participants.first(where: { $0.role == .privateUser })
            else { throw Failure() }
            share.removeParticipant(bob)
            guard let saved = try await database.save(share) as? CKShare else { throw Failure() }
            return saved.participants.map(Self.describe)
        }
        #expect(left == ["alice:1:2", "bob:3:3"])
    }

    @Test func aPublicShareIsJoinedByAnyoneWithTheURL() throws {
        let world = try SimulatedWorld(seed: 1, devices: [
            ("phone", "alice"), ("laptop", "bob"), ("tablet", "carol"),
        ])
        let (url, _) = try share(on: world.device("phone"))
        let permission = try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            guard let share = try await database.record(for: CKRecord.ID(
                recordName: "Share-groceries", zoneID: Self.zoneID)) as? CKShare
            else { throw Failure() }
            share.publicPermission = .readOnly
            guard let saved = try await database.save(share) as? CKShare else { throw Failure() }
            return saved.publicPermission
        }
        #expect(permission == .readOnly)
        let joined = try world.device("tablet").run {
            let metadata = try await Self.container.shareMetadata(for: url)
            let share = try await Self.container.accept(metadata)
            return share.participants.map(Self.describe)
        }
        #expect(joined == ["alice:1:2", "bob:3:1", "carol:4:2"])
    }

    @Test func anAdministratorAddsAParticipant() throws {
        let world = try SimulatedWorld(seed: 1, devices: [
            ("phone", "alice"), ("laptop", "bob"), ("tablet", "carol"),
        ])
        let (url, _) = try share(on: world.device("phone"))
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            guard let share = try await database.record(for: CKRecord.ID(
                recordName: "Share-groceries", zoneID: Self.zoneID)) as? CKShare,
                let bob = share.participants.first(where: { $0.role == .privateUser })
            else { throw Failure() }
            bob.role = .administrator
            share.addParticipant(bob)
            _ = try await database.save(share)
        }
        let added = try world.device("laptop").run {
            let metadata = try await Self.container.shareMetadata(for: url)
            let share = try await Self.container.accept(metadata)
            let carol = try await Self.container.shareParticipant(forEmailAddress: "carol")
            share.addParticipant(carol)
            guard let saved = try await Self.container.sharedCloudDatabase.save(share)
                as? CKShare else { throw Failure() }
            return saved.participants.map(Self.describe)
        }
        #expect(added == ["alice:1:2", "bob:2:2", "carol:3:1"])
    }
}
