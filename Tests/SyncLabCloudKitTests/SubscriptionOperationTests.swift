import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKModifySubscriptionsOperation` and `CKFetchSubscriptionsOperation` with Apple's blocks:
/// per subscription in the order given, the result block last (a `partialFailure` keyed by
/// subscription ID when one failed), then the earlier completion block, then `completionBlock`.
@Suite(.serialized) struct SubscriptionOperationTests {
    static let container = CKContainer(identifier: "iCloud.test.subscription-operations")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    /// Saves `a` (database), `b` (zone of Notes) and `c` (query) on the phone.
    func saveThree(on phone: SimulatedDevice) throws {
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            let results = try await database.modifySubscriptions(saving: [
                CKDatabaseSubscription(subscriptionID: "a"),
                CKRecordZoneSubscription(zoneID: Self.zoneID, subscriptionID: "b"),
                CKQuerySubscription(recordType: "Note", predicate: NSPredicate(value: true),
                    subscriptionID: "c"),
            ], deleting: [])
            _ = try results.saveResults.values.map { try $0.get() }
        }
    }

    static func describe(_ error: (any Error)?) -> String {
        guard let error = error as? CKError else { return error == nil ? "ok" : "?" }
        let items = (error.partialErrorsByItemID ?? [:]).compactMap { key, value in
            (key as? String).map { "\($0):\((value as? CKError)?.code.rawValue ?? 0)" }
        }
        return "\(error.code.rawValue) \(items.sorted())"
    }

    @Test func theModifyOperationSavesAndDeletesWithItsBlocksInOrder() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveThree(on: phone)
        let log = SubscriptionTests.Log()
        try phone.run {
            let missingZone = CKRecordZoneSubscription(
                zoneID: CKRecordZone.ID(zoneName: "Missing"), subscriptionID: "z")
            let operation = CKModifySubscriptionsOperation(
                subscriptionsToSave: [SubscriptionTests.databaseSubscription("d"), missingZone],
                subscriptionIDsToDelete: ["b", "unknown"])
            operation.perSubscriptionSaveBlock = { id, result in
                log.lines.append("save \(id) \((try? result.get()) != nil)")
            }
            operation.perSubscriptionDeleteBlock = { id, result in
                log.lines.append("delete \(id) \((try? result.get()) != nil)")
            }
            operation.modifySubscriptionsResultBlock = { result in
                if case .failure(let error) = result { log.lines.append(Self.describe(error)) }
            }
            operation.modifySubscriptionsCompletionBlock = { saved, deleted, error in
                log.lines.append("saved \(saved?.map(\.subscriptionID) ?? []) "
                    + "deleted \(deleted ?? []) \(error != nil)")
            }
            operation.completionBlock = { log.lines.append("done") }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        #expect(log.lines == [
            "save d true", "save z false", "delete b true", "delete unknown false",
            "2 [\"unknown:11\", \"z:26\"]", "saved [\"d\"] deleted [\"b\"] true", "done",
        ])
        let left = try phone.run {
            try await Self.container.privateCloudDatabase.allSubscriptions().map(\.subscriptionID)
        }
        #expect(left == ["a", "c", "d"])
    }

    @Test func theFetchOperationGivesEachIDInOrderAndAllInIDOrder() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice"), ("laptop", "alice")])
        try saveThree(on: world.device("phone"))
        let log = SubscriptionTests.Log()
        try world.device("laptop").run {
            let database = Self.container.privateCloudDatabase
            let some = CKFetchSubscriptionsOperation(subscriptionIDs: ["c", "missing", "a"])
            some.perSubscriptionResultBlock = { id, result in
                let kind = (try? result.get())?.subscriptionType.rawValue ?? 0
                log.lines.append("\(id) \(kind)")
            }
            some.fetchSubscriptionsResultBlock = { result in
                if case .failure(let error) = result { log.lines.append(Self.describe(error)) }
            }
            some.fetchSubscriptionCompletionBlock = { found, _ in
                log.lines.append("found \((found ?? [:]).keys.sorted())")
            }
            let all = CKFetchSubscriptionsOperation.fetchAllSubscriptionsOperation()
            all.perSubscriptionResultBlock = { id, _ in log.lines.append("all \(id)") }
            all.fetchSubscriptionsResultBlock = { result in
                if case .success = result { log.lines.append("all ok") }
            }
            // One after the other: two added at once would run side by side.
            some.completionBlock = { database.add(all) }
            database.add(some)
        }
        try world.settle()
        #expect(log.lines == [
            "c 1", "missing 0", "a 3", "2 [\"missing:11\"]", "found [\"a\", \"c\"]",
            "all a", "all b", "all c", "all ok",
        ])
    }

    @Test func aCancelledOperationSendsNoRequest() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let log = SubscriptionTests.Log()
        try world.device("phone").run {
            let operation = CKModifySubscriptionsOperation(
                subscriptionsToSave: [CKDatabaseSubscription(subscriptionID: "a")])
            operation.modifySubscriptionsResultBlock = { result in
                if case .failure(let error) = result { log.lines.append(Self.describe(error)) }
            }
            Self.container.privateCloudDatabase.add(operation)
            operation.cancel()
        }
        try world.settle()
        #expect(log.lines == ["20 []"])
        let left = try world.device("phone").run {
            try await Self.container.privateCloudDatabase.allSubscriptions().count
        }
        #expect(left == 0)
    }
}
