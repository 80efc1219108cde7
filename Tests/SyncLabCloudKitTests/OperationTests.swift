import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Apple's operation classes and completion-handler calls on the driver: the blocks run on the
/// device that added the operation, in simulated time, per item first and the result last.
@Suite struct OperationTests {
    static let container = CKContainer(identifier: "iCloud.test.operations")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    /// What the blocks saw, in the order they ran.
    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static func note(_ name: String, _ title: String) -> CKRecord {
        let record = CKRecord(recordType: "Note",
            recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
        record["title"] = title
        return record
    }

    func makeWorld() throws -> SimulatedWorld {
        try SimulatedWorld(seed: 3, devices: [("phone", "alice"), ("laptop", "alice")])
    }

    /// The phone makes the zone and saves two notes with one operation each kind.
    func save(on phone: SimulatedDevice, in world: SimulatedWorld, log: Log) throws {
        try phone.run {
            let database = Self.container.privateCloudDatabase
            let zones = CKModifyRecordZonesOperation(
                recordZonesToSave: [CKRecordZone(zoneID: Self.zoneID)], recordZoneIDsToDelete: nil)
            zones.perRecordZoneSaveBlock = { id, result in
                log.lines.append("zone \(id.zoneName) \((try? result.get()) != nil)")
            }
            database.add(zones)
            let records = CKModifyRecordsOperation(
                recordsToSave: [Self.note("n1", "one"), Self.note("n2", "two")],
                recordIDsToDelete: nil)
            records.perRecordSaveBlock = { id, result in
                log.lines.append("saved \(id.recordName) \((try? result.get()) != nil)")
            }
            records.modifyRecordsResultBlock = { result in
                log.lines.append("modify \((try? result.get()) != nil)")
            }
            records.completionBlock = { log.lines.append("completion") }
            database.add(records)
        }
        #expect(log.lines.isEmpty, "an added operation runs once the calling code yields")
        try world.settle()
    }

    @Test func operationsRunTheirBlocksInAppleOrderOnTheDevice() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let log = Log()
        try save(on: phone, in: world, log: log)
        #expect(log.lines == ["zone Notes true", "saved n1 true", "saved n2 true", "modify true",
                              "completion"])
        log.lines = []
        try laptop.run {
            let database = Self.container.privateCloudDatabase
            let changes = CKFetchDatabaseChangesOperation(previousServerChangeToken: nil)
            changes.recordZoneWithIDChangedBlock = { log.lines.append("zone \($0.zoneName)") }
            changes.fetchDatabaseChangesResultBlock = { result in
                log.lines.append("database \((try? result.get())?.moreComing == false)")
            }
            database.add(changes)
            let configuration = CKFetchRecordZoneChangesOperation.ZoneConfiguration(
                previousServerChangeToken: nil, resultsLimit: 1)
            let records = CKFetchRecordZoneChangesOperation(recordZoneIDs: [Self.zoneID],
                configurationsByRecordZoneID: [Self.zoneID: configuration])
            records.recordWasChangedBlock = { id, result in
                log.lines.append("changed \(id.recordName) \((try? result.get())?["title"] ?? "")")
            }
            records.recordZoneChangeTokensUpdatedBlock = { _, token, _ in
                log.lines.append("token \(token != nil)")
            }
            records.recordZoneFetchResultBlock = { zone, result in
                log.lines.append("fetched \(zone.zoneName) \((try? result.get())?.moreComing == false)")
            }
            records.fetchRecordZoneChangesResultBlock = { result in
                log.lines.append("done \((try? result.get()) != nil)")
            }
            database.add(records)
        }
        try world.settle()
        #expect(log.lines == ["zone Notes", "database true", "changed n1 one", "token true",
                              "changed n2 two", "fetched Notes true", "done true"])
    }

    @Test func aConflictIsAPartialFailureWithTheServerRecord() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try save(on: phone, in: world, log: Log())
        let log = Log()
        try laptop.run {
            let stale = CKModifyRecordsOperation(recordsToSave: [Self.note("n1", "stale")],
                recordIDsToDelete: nil)
            stale.perRecordSaveBlock = { id, result in
                if case .failure(let error as CKError) = result {
                    log.lines.append("\(id.recordName) \(error.code) "
                        + "\(error.serverRecord?["title"] as? String ?? "-")")
                }
            }
            stale.modifyRecordsResultBlock = { result in
                if case .failure(let error as CKError) = result {
                    log.lines.append("\(error.code) \(error.partialErrorsByItemID?.count ?? 0)")
                }
            }
            Self.container.privateCloudDatabase.add(stale)
        }
        try world.settle()
        #expect(log.lines == ["n1 serverRecordChanged one", "partialFailure 1"])
    }

    @Test func completionHandlersAndFetchRecordsGiveAppleResults() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        try save(on: phone, in: world, log: Log())
        let log = Log()
        try laptop.run {
            let database = Self.container.privateCloudDatabase
            database.fetch(withRecordID: CKRecord.ID(recordName: "n2", zoneID: Self.zoneID)) {
                record, error in
                log.lines.append("fetch \(record?["title"] as? String ?? "-") \(error == nil)")
            }
            let missing = CKRecord.ID(recordName: "gone", zoneID: Self.zoneID)
            let fetch = CKFetchRecordsOperation(recordIDs: [missing])
            fetch.perRecordResultBlock = { id, result in
                if case .failure(let error as CKError) = result {
                    log.lines.append("\(id.recordName) \(error.code)")
                }
            }
            database.add(fetch)
            database.save(Self.note("n3", "three")) { record, error in
                log.lines.append("save \(record?.recordID.recordName ?? "-") \(error == nil)")
            }
        }
        try world.settle()
        #expect(log.lines.sorted() == ["fetch two true", "gone unknownItem", "save n3 true"])
        let stored = world.cloudRecords(zoneName: "Notes", account: "alice").map(\.recordID.recordName)
        #expect(stored == ["n1", "n2", "n3"])
    }

    @Test func aCancelledOperationEndsWithOperationCancelledAndSendsNothing() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let log = Log()
        try phone.run {
            let operation = CKModifyRecordZonesOperation(
                recordZonesToSave: [CKRecordZone(zoneID: Self.zoneID)], recordZoneIDsToDelete: nil)
            operation.modifyRecordZonesResultBlock = { result in
                if case .failure(let error as CKError) = result { log.lines.append("\(error.code)") }
            }
            Self.container.privateCloudDatabase.add(operation)
            operation.cancel()
        }
        try world.settle()
        #expect(log.lines == ["operationCancelled"])
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").isEmpty)
    }
}
