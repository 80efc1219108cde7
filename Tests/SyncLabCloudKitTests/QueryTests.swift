import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKQuery` and `CKRecordZoneSubscription` on the driver: a device's query pages over the
/// records of a type, its predicate evaluated on the device; a zone subscription is saved.
@Suite(.serialized) struct QueryTests {
    static let container = CKContainer(identifier: "iCloud.test.query")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    struct Failure: Error {}

    /// Saves five notes `n1`…`n5` with `rank` 1…5 and one folder.
    func saveNotes(on phone: SimulatedDevice) throws {
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            var records: [CKRecord] = (1...5).map { index in
                let note = CKRecord(recordType: "Note",
                    recordID: CKRecord.ID(recordName: "n\(index)", zoneID: Self.zoneID))
                note["rank"] = index
                return note
            }
            records.append(CKRecord(recordType: "Folder",
                recordID: CKRecord.ID(recordName: "f1", zoneID: Self.zoneID)))
            try await database.modifyRecords(saving: records, deleting: [])
        }
    }

    @Test func aTruePredicatePagesOverEveryRecordOfTheType() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let pages = try phone.run { () -> [[String]] in
            let database = Self.container.privateCloudDatabase
            let query = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
            var (results, cursor) = try await database.records(
                matching: query, inZoneWith: Self.zoneID, resultsLimit: 2)
            var pages = [results.map(\.0.recordName)]
            while let next = cursor {
                (results, cursor) = try await database.records(
                    continuingMatchFrom: next, resultsLimit: 2)
                pages.append(results.map(\.0.recordName))
            }
            return pages
        }
        #expect(pages == [["n1", "n2"], ["n3", "n4"], ["n5"]])
    }

    @Test func aQueryOperationDeliversEachMatchThenTheCursorOfTheNextPage() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let log = OperationTests.Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            let query = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
            let first = CKQueryOperation(query: query)
            first.zoneID = Self.zoneID
            first.resultsLimit = 3
            first.recordMatchedBlock = { id, _ in log.lines.append(id.recordName) }
            first.queryResultBlock = { result in
                guard case .success(let cursor?) = result else { return }
                log.lines.append("cursor")
                let next = CKQueryOperation(cursor: cursor)
                next.recordMatchedBlock = { id, _ in log.lines.append(id.recordName) }
                next.queryResultBlock = { result in
                    if case .success(.none) = result { log.lines.append("end") }
                }
                database.add(next)
            }
            database.add(first)
        }
        try world.settle()
        #expect(log.lines == ["n1", "n2", "n3", "cursor", "n4", "n5", "end"])
    }

    @Test func aBlockPredicateIsEvaluatedOnTheDevice() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let names = try phone.run { () -> [String] in
            let predicate = NSPredicate { object, _ in
                ((object as? CKRecord)?["rank"] as? Int ?? 0) >= 4
            }
            let query = CKQuery(recordType: "Note", predicate: predicate)
            let (results, cursor) = try await Self.container.privateCloudDatabase.records(
                matching: query)
            guard cursor == nil else { throw Failure() }
            return results.map(\.0.recordName)
        }
        #expect(names == ["n4", "n5"])
    }

    @Test func sortDescriptorsAreRefusedNotIgnored() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let refused = #expect(throws: CKError.self) {
            try phone.run {
                let query = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
                query.sortDescriptors = [NSSortDescriptor(keyPath: \CKRecord.recordType,
                    ascending: true)]
                _ = try await Self.container.privateCloudDatabase.records(matching: query)
            }
        }
        #expect(refused?.code == .invalidArguments)
    }

    @Test func aZoneSubscriptionIsSaved() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let (saved, missing) = try phone.run { () -> ([String], Bool) in
            let database = Self.container.privateCloudDatabase
            let subscription = CKRecordZoneSubscription(
                zoneID: Self.zoneID, subscriptionID: "notes")
            let results = try await database.modifySubscriptions(
                saving: [subscription], deleting: [])
            let other = CKRecordZoneSubscription(zoneID: CKRecordZone.ID(zoneName: "Missing"))
            var failed = false
            do { try await database.save(other) } catch { failed = true }
            return (results.saveResults.keys.sorted(), failed)
        }
        #expect(saved == ["notes"])
        #expect(missing)
    }
}
