import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKDatabaseSubscription`, `CKQuerySubscription` and `CKRecordZoneSubscription` as apps
/// written after Apple's documentation use them: saved once with `shouldSendContentAvailable`,
/// read back with `CKNotification(fromRemoteNotificationDictionary:)` when another device
/// writes, deleted, and fetched by a device that did not save them.
@Suite(.serialized) struct SubscriptionTests {
    static let container = CKContainer(identifier: "iCloud.test.subscriptions")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    /// What a device's handler saw: one line per notification.
    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    /// The app's side: each notification as `kind id scope` (a query's with its reason).
    static func register(into log: Log) {
        RemoteNotifications.register { userInfo in
            guard let notification = CKNotification(fromRemoteNotificationDictionary: userInfo)
            else { return }
            let id = notification.subscriptionID ?? "-"
            switch notification {
            case let database as CKDatabaseNotification:
                log.lines.append("database \(id) \(database.databaseScope.rawValue)")
            case let zone as CKRecordZoneNotification:
                log.lines.append("zone \(id) \(zone.recordZoneID?.zoneName ?? "-")")
            case let query as CKQueryNotification:
                log.lines.append("query \(id) \(query.queryNotificationReason.rawValue) "
                    + "\(query.databaseScope.rawValue) \(query.recordID == nil)")
            default:
                log.lines.append("other \(id)")
            }
        }
    }

    /// A database subscription as Apple's documentation sets one up: silent pushes.
    static func databaseSubscription(_ id: String = "private-changes") -> CKSubscription {
        let subscription = CKDatabaseSubscription(subscriptionID: id)
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        subscription.notificationInfo = info
        return subscription
    }

    func makeWorld() throws -> SimulatedWorld {
        try SimulatedWorld(seed: 5, devices: [
            ("phone", "alice"), ("laptop", "alice"), ("tablet", "alice"),
        ])
    }

    static func makeZone(on device: SimulatedDevice) throws {
        try device.run {
            try await Self.container.privateCloudDatabase.save(CKRecordZone(zoneID: Self.zoneID))
        }
    }

    static func save(_ name: String, on device: SimulatedDevice,
                     zoneID: CKRecordZone.ID = zoneID) throws {
        try device.run {
            let note = CKRecord(recordType: "Note",
                recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
            try await Self.container.privateCloudDatabase.save(note)
        }
    }

    @Test func aDatabaseSubscriptionNotifiesOfAnotherDevicesWriteToACustomZone() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try Self.makeZone(on: phone)
        let log = Log()
        try phone.run {
            try await Self.container.privateCloudDatabase.save(Self.databaseSubscription())
            Self.register(into: log)
        }
        try Self.save("n1", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2"])
        // The default zone has no database pushes; the phone's own write pushes nothing.
        try Self.save("d1", on: laptop, zoneID: CKRecordZone.default().zoneID)
        try Self.save("n2", on: phone)
        try world.settle()
        #expect(log.lines == ["database private-changes 2"])
    }

    @Test func theSharedDatabasesSubscriptionNotifiesTheParticipant() throws {
        let world = try SimulatedWorld(seed: 5, devices: [("phone", "alice"), ("laptop", "bob")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let sharing = SharingTests()
        let (url, _) = try sharing.share(on: phone)
        let log = Log()
        try laptop.run {
            let metadata = try await SharingTests.container.shareMetadata(for: url)
            _ = try await SharingTests.container.accept(metadata)
            try await SharingTests.container.sharedCloudDatabase.save(
                Self.databaseSubscription("shared-changes"))
            Self.register(into: log)
        }
        try phone.run {
            let database = SharingTests.container.privateCloudDatabase
            let root = try await database.record(for: CKRecord.ID(
                recordName: "groceries", zoneID: SharingTests.zoneID))
            root["title"] = "Shopping"
            try await database.save(root)
        }
        try world.settle()
        #expect(log.lines == ["database shared-changes 3"])
    }

    @Test func aQuerySubscriptionNotifiesWithAQueryNotification() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try Self.makeZone(on: phone)
        let log = Log()
        try phone.run {
            let subscription = CKQuerySubscription(
                recordType: "Note", predicate: NSPredicate(value: true),
                subscriptionID: "new-notes", options: [.firesOnRecordCreation])
            subscription.notificationInfo = CKSubscription.NotificationInfo(
                shouldSendContentAvailable: true)
            try await Self.container.privateCloudDatabase.save(subscription)
            Self.register(into: log)
        }
        try Self.save("n1", on: laptop)
        try world.settle()
        #expect(log.lines == ["query new-notes 1 2 true"])
    }

    @Test func aPredicateTheServerCannotEvaluateIsRefusedAndWhereKindsMayBeSaved() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        try Self.makeZone(on: phone)
        let codes = try phone.run { () -> [Int] in
            let block = CKQuerySubscription(
                recordType: "Note", predicate: NSPredicate { _, _ in true })
            let zone = CKRecordZoneSubscription(zoneID: Self.zoneID)
            let shared = Self.container.sharedCloudDatabase
            var codes: [Int] = []
            for (database, subscription) in [
                (Self.container.privateCloudDatabase, block as CKSubscription),
                (shared, zone), (shared, CKQuerySubscription(recordType: "Note",
                    predicate: NSPredicate(value: true))),
            ] {
                do { try await database.save(subscription) } catch let error as CKError {
                    codes.append(error.code.rawValue)
                }
            }
            return codes
        }
        #expect(codes == [12, 12, 12])
    }

    @Test func aDeletedSubscriptionNotifiesNoMore() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try Self.makeZone(on: phone)
        let log = Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(Self.databaseSubscription())
            try await database.save(CKRecordZoneSubscription(
                zoneID: Self.zoneID, subscriptionID: "zone-notes"))
            Self.register(into: log)
        }
        try Self.save("n1", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2", "zone zone-notes Notes"])
        let deleted = try phone.run {
            try await Self.container.privateCloudDatabase.deleteSubscription(
                withID: "private-changes")
        }
        #expect(deleted == "private-changes")
        try Self.save("n2", on: laptop)
        try world.settle()
        #expect(log.lines.suffix(1) == ["zone zone-notes Notes"])
        #expect(log.lines.count == 3)
        // Deleting it again: `unknownItem`.
        let again = #expect(throws: CKError.self) {
            try phone.run {
                try await Self.container.privateCloudDatabase.deleteSubscription(
                    withID: "private-changes")
            }
        }
        #expect(again?.code == .unknownItem)
    }

    @Test func aDeviceThatOnlyFetchesTheSubscriptionIsNotified() throws {
        let world = try makeWorld()
        let (phone, laptop, tablet) =
            (world.device("phone"), world.device("laptop"), world.device("tablet"))
        try Self.makeZone(on: phone)
        try phone.run {
            try await Self.container.privateCloudDatabase.save(Self.databaseSubscription())
        }
        let log = Log()
        let fetched = try tablet.run { () -> [String] in
            Self.register(into: log)
            let all = try await Self.container.privateCloudDatabase.allSubscriptions()
            return all.map {
                "\($0.subscriptionID) \($0.subscriptionType.rawValue) "
                    + "\($0.notificationInfo?.shouldSendContentAvailable == true)"
            }
        }
        #expect(fetched == ["private-changes 3 true"])
        try Self.save("n1", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2"])
        // Its deletion by another device: the tablet's next fetch forgets it.
        try phone.run {
            try await Self.container.privateCloudDatabase.deleteSubscription(
                withID: "private-changes")
        }
        _ = try tablet.run { try await Self.container.privateCloudDatabase.allSubscriptions() }
        try Self.save("n2", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2"])
    }

    @Test func completionHandlersSaveFetchListAndDelete() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            database.save(Self.databaseSubscription("b")) { saved, error in
                log.lines.append("saved \(saved?.subscriptionID ?? "-") \(error == nil)")
                database.fetch(withSubscriptionID: "b") { found, _ in
                    log.lines.append("fetched \(found is CKDatabaseSubscription)")
                    database.fetchAllSubscriptions { all, _ in
                        log.lines.append("all \(all?.map(\.subscriptionID) ?? [])")
                        database.delete(withSubscriptionID: "b") { id, _ in
                            log.lines.append("deleted \(id ?? "-")")
                            database.delete(withSubscriptionID: "b") { id, error in
                                let code = (error as? CKError)?.code.rawValue ?? 0
                                log.lines.append("again \(id ?? "-") \(code)")
                            }
                        }
                    }
                }
            }
        }
        try world.settle()
        #expect(log.lines == ["saved b true", "fetched true", "all [\"b\"]", "deleted b",
            "again - 11"])
    }
}
