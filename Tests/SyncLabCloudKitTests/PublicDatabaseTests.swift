import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `publicCloudDatabase` as an app uses it: one database for every user of the container,
/// readable signed out, each record writable by the user who created it only; no change
/// fetches, no `CKSyncEngine`; query subscriptions notify other users' devices.
@Suite(.serialized) struct PublicDatabaseTests {
    static let container = CKContainer(identifier: "iCloud.test.public")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    func makeWorld(seed: UInt64 = 3) throws -> SimulatedWorld {
        try SimulatedWorld(seed: seed, accounts: ["alice", "bob"],
            devices: [("phone", "alice"), ("laptop", "bob")])
    }

    static func post(_ name: String, _ text: String) -> CKRecord {
        let record = CKRecord(recordType: "Post", recordID: CKRecord.ID(recordName: name))
        record["text"] = text
        return record
    }

    static func code(_ error: (any Error)?) -> String {
        (error as? CKError).map { "\($0.code)" } ?? "-"
    }

    @Test func anotherAccountReadsAndQueriesButCannotChangeARecord() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try phone.run { try await Self.container.publicCloudDatabase.save(Self.post("p1", "hi")) }
        let seen = try laptop.run { () -> [String] in
            let database = Self.container.publicCloudDatabase
            let record = try await database.record(for: CKRecord.ID(recordName: "p1"))
            let query = CKQuery(recordType: "Post", predicate: NSPredicate(value: true))
            let (matches, _) = try await database.records(matching: query)
            return [record["text"] as? String ?? "-", record.recordID.zoneID.ownerName]
                + matches.map(\.0.recordName)
        }
        #expect(seen == ["hi", CKCurrentUserDefaultName, "p1"])
        let refused = try laptop.run { () -> [String] in
            let database = Self.container.publicCloudDatabase
            let record = try await database.record(for: CKRecord.ID(recordName: "p1"))
            record["text"] = "bob was here"
            var codes: [String] = []
            do { try await database.save(record) } catch { codes.append(Self.code(error)) }
            do { try await database.deleteRecord(withID: record.recordID) } catch {
                codes.append(Self.code(error))
            }
            return codes
        }
        #expect(refused == ["permissionFailure", "permissionFailure"])
        // alice's private database never held it.
        let privately = try phone.run { () -> String in
            do {
                _ = try await Self.container.privateCloudDatabase.record(
                    for: CKRecord.ID(recordName: "p1"))
                return "found"
            } catch { return Self.code(error) }
        }
        #expect(privately == "unknownItem")
    }

    /// A format predicate and a sort descriptor reach the public database's server as they
    /// reach the private one's: another account's query is filtered and ordered there.
    @Test func aFormatQueryOfThePublicDatabaseIsFilteredAndSortedByTheServer() throws {
        let world = try makeWorld()
        try world.device("phone").run {
            let database = Self.container.publicCloudDatabase
            for (name, text) in [("p1", "beta"), ("p2", "alpha"), ("p3", "other")] {
                try await database.save(Self.post(name, text))
            }
        }
        let names = try world.device("laptop").run { () -> [String] in
            let query = CKQuery(
                recordType: "Post", predicate: NSPredicate(format: "text BEGINSWITH %@", "a"))
            query.sortDescriptors = [NSSortDescriptor(key: "text", ascending: false)]
            let wide = CKQuery(
                recordType: "Post", predicate: NSPredicate(format: "text != %@", "other"))
            wide.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
            let database = Self.container.publicCloudDatabase
            let (first, _) = try await database.records(matching: query)
            let (second, _) = try await database.records(matching: wide, resultsLimit: 1)
            return first.map(\.0.recordName) + ["|"] + second.map(\.0.recordName)
        }
        #expect(names == ["p2", "|", "p2"])
    }

    /// An operation added to the public database runs there: bob's save of alice's record
    /// fails on its item, his new record is saved, the operation ends in a partial failure.
    @Test func aModifyOperationOnThePublicDatabaseFailsTheOthersRecordOnly() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try phone.run { try await Self.container.publicCloudDatabase.save(Self.post("p1", "hi")) }
        let log = Log()
        try laptop.run {
            let database = Self.container.publicCloudDatabase
            let alices = try await database.record(for: CKRecord.ID(recordName: "p1"))
            alices["text"] = "bob"
            let operation = CKModifyRecordsOperation(
                recordsToSave: [alices, Self.post("b1", "bob's")], recordIDsToDelete: nil)
            operation.perRecordSaveBlock = { id, result in
                log.lines.append("\(id.recordName) \((try? result.get()) == nil ? "-" : "saved")")
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                operation.modifyRecordsResultBlock = { result in
                    if case .failure(let error) = result { log.lines.append(Self.code(error)) }
                    done.resume()
                }
                database.add(operation)
            }
        }
        #expect(log.lines.sorted() == ["b1 saved", "p1 -", "partialFailure"])
    }

    @Test func signedOutTheAppReadsButCannotWrite() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try phone.run { try await Self.container.publicCloudDatabase.save(Self.post("p1", "hi")) }
        try laptop.signOut()
        let outcome = try laptop.run { () -> [String] in
            let database = Self.container.publicCloudDatabase
            let record = try await database.record(for: CKRecord.ID(recordName: "p1"))
            var lines = [record["text"] as? String ?? "-"]
            do { try await database.save(Self.post("p2", "anonymous")) } catch {
                lines.append(Self.code(error))
            }
            return lines
        }
        #expect(outcome == ["hi", "notAuthenticated"])
    }

    @Test func zonesChangeFetchesAndDatabaseSubscriptionsAreRefused() throws {
        let world = try makeWorld()
        let codes = try world.device("phone").run { () -> [String] in
            let database = Self.container.publicCloudDatabase
            var codes: [String] = []
            do { try await database.save(CKRecordZone(zoneName: "Posts")) } catch {
                codes.append(Self.code(error))
            }
            do { _ = try await database.databaseChanges(since: nil) } catch {
                codes.append(Self.code(error))
            }
            do { _ = try await database.recordZoneChanges(inZoneWith: .default, since: nil) }
            catch { codes.append(Self.code(error)) }
            do { try await database.save(CKDatabaseSubscription(subscriptionID: "all")) } catch {
                codes.append(Self.code(error))
            }
            codes += try await database.allRecordZones().map(\.zoneID.zoneName)
            return codes
        }
        #expect(codes == ["invalidArguments", "invalidArguments", "invalidArguments",
            "invalidArguments", CKRecordZone.ID.defaultZoneName])
    }

    /// bob subscribes to new posts; alice's post reaches bob's device as a query notification
    /// of the public database (scope 1); bob's own post does not notify his device.
    @Test func aQuerySubscriptionNotifiesAnotherAccountsDevice() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        try laptop.run {
            let subscription = CKQuerySubscription(
                recordType: "Post", predicate: NSPredicate(value: true),
                subscriptionID: "new-posts", options: [.firesOnRecordCreation])
            subscription.notificationInfo = CKSubscription.NotificationInfo(
                shouldSendContentAvailable: true)
            try await Self.container.publicCloudDatabase.save(subscription)
            RemoteNotifications.register { userInfo in
                guard let query = CKNotification(fromRemoteNotificationDictionary: userInfo)
                    as? CKQueryNotification else { return }
                log.lines.append("\(query.subscriptionID ?? "-") "
                    + "\(query.queryNotificationReason.rawValue) \(query.databaseScope.rawValue)")
            }
        }
        try laptop.run { try await Self.container.publicCloudDatabase.save(Self.post("b1", "x")) }
        try world.settle()
        #expect(log.lines.isEmpty)
        try phone.run { try await Self.container.publicCloudDatabase.save(Self.post("p1", "hi")) }
        try world.settle()
        #expect(log.lines == ["new-posts 1 1"])
    }

    final class Idle: CKSyncEngineDelegate, @unchecked Sendable {
        func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}

        func nextRecordZoneChangeBatch(
            _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
        ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
    }

    @Test func aSyncEngineOnThePublicDatabaseFailsTheRun() throws {
        let world = try makeWorld()
        let delegate = Idle()
        #expect {
            try world.device("phone").run {
                _ = CKSyncEngine(CKSyncEngine.Configuration(
                    database: Self.container.publicCloudDatabase, stateSerialization: nil,
                    delegate: delegate))
            }
        } throws: { error in
            "\(error)".contains("CKSyncEngine cannot be used with the public database")
        }
    }

    @Test func theSameSeedGivesTheSameTrace() throws {
        func traced() throws -> String {
            let world = try makeWorld(seed: 9)
            let (phone, laptop) = (world.device("phone"), world.device("laptop"))
            try phone.run {
                try await Self.container.publicCloudDatabase.save(Self.post("p1", "hi"))
            }
            _ = try laptop.run { () -> String in
                let database = Self.container.publicCloudDatabase
                let record = try await database.record(for: CKRecord.ID(recordName: "p1"))
                record["text"] = "bob"
                do { try await database.save(record) } catch { return Self.code(error) }
                return "saved"
            }
            try world.settle()
            return world.traceJSONLines
        }
        let first = try traced()
        #expect(first == (try traced()))
        #expect(first.contains("not-creator"))
    }
}
