import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// A zone subscription's push reaches an app that registered for remote notifications, as
/// `application(_:didReceiveRemoteNotification:…)` would, and the app reads it with
/// `CKNotification(fromRemoteNotificationDictionary:)`.
@Suite(.serialized) struct RemoteNotificationTests {
    static let container = CKContainer(identifier: "iCloud.test.push")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    /// What the phone's handler saw: each notification, and the records its fetch found.
    final class Log: @unchecked Sendable {
        var notifications: [String] = []
        var fetched: [String] = []
    }

    /// The app's side: on each zone notification, fetch the zone's records.
    static func register(into log: Log) {
        RemoteNotifications.register { userInfo in
            guard let notification = CKNotification(fromRemoteNotificationDictionary: userInfo),
                let zone = notification as? CKRecordZoneNotification,
                let zoneID = zone.recordZoneID
            else { return }
            log.notifications.append("\(notification.notificationType.rawValue) "
                + "\(notification.subscriptionID ?? "-") \(zoneID.zoneName) \(zoneID.ownerName)")
            let changes = try? await Self.container.privateCloudDatabase.recordZoneChanges(
                inZoneWith: zoneID, since: nil)
            log.fetched = (changes?.modificationResultsByID.keys.map(\.recordName) ?? []).sorted()
        }
    }

    func save(_ name: String, on device: SimulatedDevice) throws {
        try device.run {
            let note = CKRecord(recordType: "Note",
                recordID: CKRecord.ID(recordName: name, zoneID: Self.zoneID))
            _ = try await Self.container.privateCloudDatabase.modifyRecords(
                saving: [note], deleting: [])
        }
    }

    @Test func aPushCallsTheRegisteredHandlerWithTheSubscriptionsZone() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice"), ("laptop", "alice")])
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            try await database.save(
                CKRecordZoneSubscription(zoneID: Self.zoneID, subscriptionID: "notes"))
            Self.register(into: log)
        }
        try save("n1", on: world.device("laptop"))
        try world.settle()
        #expect(log.notifications == ["2 notes Notes \(CKCurrentUserDefaultName)"])
        #expect(log.fetched == ["n1"])
        // The originator gets no push: the phone's own save calls nothing.
        try save("n2", on: phone)
        try world.settle()
        #expect(log.notifications.count == 1)
    }

    /// The registration is the launch's; the subscription is the server's, so a relaunched
    /// app that registers again gets its pushes without saving it again.
    @Test func aKillForgetsTheHandlerNotTheSubscription() throws {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice"), ("laptop", "alice")])
        let phone = world.device("phone")
        let laptop = world.device("laptop")
        let log = Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            try await database.save(CKRecordZoneSubscription(zoneID: Self.zoneID))
            Self.register(into: log)
        }
        try phone.kill()
        try phone.launch()
        try save("n1", on: laptop)
        try world.settle()
        #expect(log.notifications.isEmpty)
        try phone.run { Self.register(into: log) }
        try save("n2", on: laptop)
        try world.settle()
        #expect(log.notifications == ["2 zone-Notes Notes \(CKCurrentUserDefaultName)"])
        #expect(log.fetched == ["n1", "n2"])
    }

    @Test func anotherPushIsNoCloudKitNotification() {
        #expect(CKNotification(fromRemoteNotificationDictionary: ["aps": ["alert": "hi"]]) == nil)
    }
}
