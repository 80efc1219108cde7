import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `desiredKeys` as an app sees it (Apple, `records(for:desiredKeys:)`: nil is every field,
/// an empty array the system fields only): every fetch returns only the listed fields, and a
/// record fetched so and saved keeps on the server the fields it was fetched without.
@Suite struct DesiredKeysTests {
    static let container = CKContainer(identifier: "iCloud.test.keys")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")
    static let noteID = CKRecord.ID(recordName: "n1", zoneID: zoneID)

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    /// A world whose phone saved note `n1` with `title`, `body` and `rank`.
    func makeWorld() throws -> SimulatedWorld {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice")])
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            let note = CKRecord(recordType: "Note", recordID: Self.noteID)
            note["title"] = "Title"
            note["body"] = "Body"
            note["rank"] = 3
            try await database.save(note)
        }
        return world
    }

    static func keys(_ record: CKRecord?) -> [String] { record?.allKeys().sorted() ?? ["none"] }

    @Test func recordsForIDsReturnOnlyTheListedKeys() throws {
        let world = try makeWorld()
        let keys = try world.device("phone").run { () -> [[String]] in
            let database = Self.container.privateCloudDatabase
            var keys: [[String]] = []
            for desired in [nil, ["title", "missing"], []] as [[String]?] {
                let results = try await database.records(for: [Self.noteID], desiredKeys: desired)
                let record = try results[Self.noteID]?.get()
                keys.append(Self.keys(record) + [record?.recordChangeTag == nil ? "" : "tag"])
            }
            return keys
        }
        #expect(keys == [["body", "rank", "title", "tag"], ["title", "tag"], ["tag"]])
    }

    @Test func theOperationsReturnOnlyTheListedKeys() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            let fetch = CKFetchRecordsOperation(recordIDs: [Self.noteID])
            fetch.desiredKeys = ["rank"]
            fetch.perRecordResultBlock = { _, result in
                log.lines.append("fetch \(Self.keys(try? result.get()))")
            }
            let query = CKQueryOperation(query: CKQuery(recordType: "Note",
                predicate: NSPredicate(value: true)))
            query.zoneID = Self.zoneID
            query.desiredKeys = ["body"]
            query.recordMatchedBlock = { _, result in
                log.lines.append("query \(Self.keys(try? result.get()))")
            }
            let configuration = CKFetchRecordZoneChangesOperation.ZoneConfiguration(
                desiredKeys: [])
            let changes = CKFetchRecordZoneChangesOperation(recordZoneIDs: [Self.zoneID],
                configurationsByRecordZoneID: [Self.zoneID: configuration])
            changes.recordWasChangedBlock = { _, result in
                log.lines.append("changes \(Self.keys(try? result.get()))")
            }
            database.add(fetch)
            database.add(query)
            database.add(changes)
        }
        try world.settle()
        #expect(log.lines.sorted() == ["changes []", "fetch [\"rank\"]", "query [\"body\"]"])
    }

    @Test func theAsyncQueryAndZoneChangesReturnOnlyTheListedKeys() throws {
        let world = try makeWorld()
        let keys = try world.device("phone").run { () -> [[String]] in
            let database = Self.container.privateCloudDatabase
            // The predicate reads a key the app did not ask for: the server evaluates it on
            // the whole record.
            let query = CKQuery(recordType: "Note", predicate: NSPredicate(block: { record, _ in
                (record as? CKRecord)?["rank"] as Int? == 3 }))
            let matches = try await database.records(
                matching: query, inZoneWith: Self.zoneID, desiredKeys: ["title"])
            let changes = try await database.recordZoneChanges(
                inZoneWith: Self.zoneID, since: nil, desiredKeys: ["body", "rank"])
            return [Self.keys(try matches.matchResults.first?.1.get()),
                    Self.keys(try changes.modificationResultsByID[Self.noteID]?.get().record)]
        }
        #expect(keys == [["title"], ["body", "rank"]])
    }

    @Test func aRecordFetchedWithSomeKeysSavesOnlyWhatTheAppChanged() throws {
        let world = try makeWorld()
        let fields = try world.device("phone").run { () -> [String] in
            let database = Self.container.privateCloudDatabase
            let partial = try await database.records(for: [Self.noteID], desiredKeys: ["title"])
            let record = try #require(try partial[Self.noteID]?.get())
            record["title"] = "New title"
            try await database.save(record)
            let whole = try await database.record(for: Self.noteID)
            return whole.allKeys().sorted().map { "\($0)=\(whole[$0].map { "\($0)" } ?? "")" }
        }
        #expect(fields == ["body=Body", "rank=3", "title=New title"])
    }
}
