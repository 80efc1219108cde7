import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Apple's completion-handler calls of `CKDatabase` and `CKContainer` as older app code uses
/// them: each handler runs once, on the calling device, after the code that called yields,
/// with Apple's result shape (per-item results inside a successful `Result`).
@Suite struct CompletionHandlerCallTests {
    static let container = CKContainer(identifier: "iCloud.test.handlers")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static var device: String { DeviceRuntime.current?.device ?? "no device" }

    static func note(_ name: String, _ title: String) -> CKRecord {
        let record = CKRecord(recordType: "Note",
            recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
        record["title"] = title
        return record
    }

    static func code(_ error: (any Error)?) -> String {
        (error as? CKError).map { "\($0.code)" } ?? "-"
    }

    func makeWorld() throws -> SimulatedWorld {
        try SimulatedWorld(seed: 6, devices: [("phone", "alice"), ("laptop", "alice")])
    }

    /// Zones and records saved by handlers, read back by ID, one ID missing.
    @Test func modifyAndFetchByIDGiveResultsPerItem() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            database.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: []) {
                result in
                let saved = (try? result.get())?.saveResults[Self.zoneID].map { (try? $0.get()) }
                log.lines.append("zone \(saved != nil) on \(Self.device)")
                database.modifyRecords(saving: [Self.note("n1", "one"), Self.note("n2", "two")],
                    deleting: []) { result in
                    let saves = (try? result.get())?.saveResults ?? [:]
                    log.lines.append("saved \(saves.count) on \(Self.device)")
                }
            }
            log.lines.append("called")
        }
        try world.settle()
        #expect(log.lines == ["called", "zone true on phone", "saved 2 on phone"])
        log.lines = []
        try laptop.run {
            let database = Self.container.privateCloudDatabase
            let gone = CKRecord.ID(recordName: "gone", zoneID: Self.zoneID)
            database.fetch(withRecordIDs: [CKRecord.ID(recordName: "n1", zoneID: Self.zoneID),
                gone]) { result in
                guard case .success(let byID) = result else { return log.lines.append("failed") }
                for (id, item) in byID.sorted(by: { $0.key.recordName < $1.key.recordName }) {
                    switch item {
                    case .success(let record):
                        log.lines.append("\(id.recordName) \(record["title"] as? String ?? "")")
                    case .failure(let error): log.lines.append("\(id.recordName) \(Self.code(error))")
                    }
                }
                // A stale save fails alone: the call succeeds with the item's error.
                database.modifyRecords(saving: [Self.note("n2", "stale")], deleting: [gone],
                    savePolicy: .ifServerRecordUnchanged, atomically: false) { result in
                    let results = try? result.get()
                    let save = results?.saveResults[CKRecord.ID(recordName: "n2",
                        zoneID: Self.zoneID)]
                    log.lines.append("stale \(Self.code(save?.failure)) on \(Self.device)")
                }
            }
        }
        try world.settle()
        #expect(log.lines == ["gone unknownItem", "n1 one", "stale serverRecordChanged on laptop"])
    }

    /// A query page by page with a cursor, and Apple's earlier `perform(_:inZoneWith:)`.
    @Test func queriesPageWithACursor() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        try phone.run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            try await database.modifyRecords(saving: [Self.note("n1", "one"),
                Self.note("n2", "two")], deleting: [])
        }
        let log = Log()
        try phone.run {
            let database = Self.container.privateCloudDatabase
            let query = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
            database.fetch(withQuery: query, inZoneWith: Self.zoneID, resultsLimit: 1) { result in
                guard let page = try? result.get(), let cursor = page.queryCursor else {
                    return log.lines.append("no cursor")
                }
                log.lines.append("first \(page.matchResults.map(\.0.recordName))")
                database.fetch(withCursor: cursor, resultsLimit: 1) { result in
                    let page = try? result.get()
                    log.lines.append("next \(page?.matchResults.map(\.0.recordName) ?? []) "
                        + "\(page?.queryCursor == nil)")
                }
            }
            database.perform(query, inZoneWith: Self.zoneID) { records, error in
                log.lines.append("perform \(records?.map(\.recordID.recordName) ?? []) "
                    + "\(Self.code(error)) on \(Self.device)")
            }
        }
        try world.settle()
        #expect(log.lines.sorted() == ["first [\"n1\"]", "next [\"n2\"] true",
            "perform [\"n1\", \"n2\"] - on phone"])
    }

    /// The change fetches' handler forms: the database's changed zone, then the zone's records
    /// a page at a time (a limit of 0 is none).
    @Test func changeFetchesHandTheirPagesToTheHandler() throws {
        let world = try makeWorld()
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            try await database.modifyRecords(saving: [Self.note("n1", "one"),
                Self.note("n2", "two")], deleting: [])
        }
        let log = Log()
        try world.device("laptop").run {
            let database = Self.container.privateCloudDatabase
            database.fetchDatabaseChanges(since: nil) { result in
                let changes = try? result.get()
                log.lines.append("zones \(changes?.modifications.map(\.zoneID.zoneName) ?? []) "
                    + "on \(Self.device)")
            }
            database.fetchRecordZoneChanges(inZoneWith: Self.zoneID, since: nil, resultsLimit: 1) {
                result in
                guard let page = try? result.get() else { return log.lines.append("failed") }
                log.lines.append("page \(page.modificationResultsByID.count) "
                    + "more \(page.moreComing)")
                database.fetchRecordZoneChanges(inZoneWith: Self.zoneID,
                    since: page.changeToken) { result in
                    let rest = try? result.get()
                    log.lines.append("rest \(rest?.modificationResultsByID.count ?? -1) "
                        + "more \(rest?.moreComing ?? true)")
                }
            }
        }
        try world.settle()
        #expect(log.lines.sorted() == ["page 1 more true", "rest 1 more false",
            "zones [\"Notes\"] on laptop"])
    }

    /// The container's handlers, an operation added to the container (its private database),
    /// and share metadata that names the container it came from.
    @Test func containerCallsAndOperations() throws {
        let world = try SimulatedWorld(seed: 6, accounts: ["alice", "bob"],
            devices: [("phone", "alice"), ("laptop", "alice")])
        let phone = world.device("phone")
        let url = try phone.run { () -> URL? in
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            try await database.save(Self.note("n1", "one"))
            return (try await database.save(CKShare(recordZoneID: Self.zoneID)) as? CKShare)?.url
        }
        let shareURL = try #require(url)
        let log = Log()
        try phone.run {
            let container = Self.container
            container.accountStatus { status, error in
                log.lines.append("status \(status.rawValue) \(Self.code(error)) on \(Self.device)")
            }
            container.fetchUserRecordID { id, error in
                log.lines.append("user \(id != nil) \(Self.code(error))")
            }
            container.fetchShareMetadata(with: shareURL) { metadata, error in
                log.lines.append("metadata \(metadata?.containerIdentifier ?? "-") "
                    + "\(metadata?.share.recordID.recordName ?? "-")")
            }
            let fetch = CKFetchRecordsOperation(
                recordIDs: [CKRecord.ID(recordName: "n1", zoneID: Self.zoneID)])
            fetch.perRecordResultBlock = { id, result in
                log.lines.append("fetched \(id.recordName) \((try? result.get()) != nil)")
            }
            fetch.completionBlock = {
                log.lines.append("operation in \(fetch.database?.databaseScope == .private)")
            }
            container.add(fetch)
        }
        try world.settle()
        #expect(log.lines.sorted() == ["fetched n1 true", "metadata iCloud.test.handlers "
            + "cloudkit.zoneshare", "operation in true", "status 1 - on phone", "user true -"])
        log.lines = []
        try phone.signOut()
        try phone.run {
            Self.container.accountStatus { status, _ in log.lines.append("status \(status.rawValue)") }
        }
        try world.settle()
        #expect(log.lines == ["status 3"])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
