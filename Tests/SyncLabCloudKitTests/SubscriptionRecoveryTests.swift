@testable import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// The subscriptions a device knows are the server's as it last saw them: a device whose
/// container is new (a lost store) knows none and is told of no push, until the app does
/// what apps do at launch (fetch its subscriptions, save the one missing) and knows them again.
@Suite(.serialized) struct SubscriptionRecoveryTests {
    /// The launch routine of Apple's samples: fetch the subscription, save it when missing.
    static func ensureSubscription() async throws {
        let database = SubscriptionTests.container.privateCloudDatabase
        do {
            _ = try await database.subscription(for: "private-changes")
        } catch let error as CKError where error.code == .unknownItem {
            try await database.save(SubscriptionTests.databaseSubscription())
        }
    }

    @Test func aDeviceWithANewContainerIsNotifiedAgainOnceItFetches() throws {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try SubscriptionTests.makeZone(on: phone)
        let log = SubscriptionTests.Log()
        try phone.run {
            try await Self.ensureSubscription()
            SubscriptionTests.register(into: log)
        }
        try SubscriptionTests.save("n1", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2"])
        // The store is lost: a container made anew keeps no list of subscriptions.
        phone.container.subscriptions = []
        try SubscriptionTests.save("n2", on: laptop)
        try world.settle()
        #expect(log.lines.count == 1)
        try phone.run { try await Self.ensureSubscription() }
        try SubscriptionTests.save("n3", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2", "database private-changes 2"])
    }

    @Test func aKillAndAReinstallKeepTheListTheRegistrationIsTheLaunchs() throws {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try SubscriptionTests.makeZone(on: phone)
        let log = SubscriptionTests.Log()
        try phone.run {
            try await SubscriptionTests.container.privateCloudDatabase.save(
                SubscriptionTests.databaseSubscription())
        }
        try phone.reinstall()
        try phone.run { SubscriptionTests.register(into: log) }
        try SubscriptionTests.save("n1", on: laptop)
        try world.settle()
        #expect(log.lines == ["database private-changes 2"])
    }
}
