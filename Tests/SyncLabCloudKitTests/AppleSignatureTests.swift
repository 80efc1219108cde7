import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Apple's signatures that older and newer app code relies on: defaults that let a call leave
/// arguments out, the generic `encryptedValues` subscript, and the earlier per-record blocks,
/// called in Apple's order on the device.
@Suite struct AppleSignatureTests {
    static let container = CKContainer(identifier: "iCloud.test.signatures")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static func note(_ name: String, _ title: String) -> CKRecord {
        let record = CKRecord(recordType: "Note",
            recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
        record["title"] = title
        return record
    }

    static func code(_ error: (any Error)?) -> String {
        (error as? CKError).map { "\($0.code)" } ?? "-"
    }

    /// Alice's phone saves three notes in the zone.
    func makeWorld() throws -> SimulatedWorld {
        let world = try SimulatedWorld(seed: 7, devices: [("phone", "alice"), ("laptop", "alice")])
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            try await database.save(CKRecordZone(zoneID: Self.zoneID))
            try await database.modifyRecords(saving: [Self.note("n1", "one"),
                Self.note("n2", "two"), Self.note("n3", "three")], deleting: [])
        }
        return world
    }

    @Test func zoneChangesWithDefaultsConfigurationsAndOptions() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("laptop").run {
            let database = Self.container.privateCloudDatabase
            // No configurations: every change, in one go.
            let all = CKFetchRecordZoneChangesOperation(recordZoneIDs: [Self.zoneID])
            all.recordWasChangedBlock = { id, _ in log.lines.append("all \(id.recordName)") }
            database.add(all)
            // A configuration with Apple's defaults left out.
            let defaults = CKFetchRecordZoneChangesOperation.ZoneConfiguration(
                previousServerChangeToken: nil, resultsLimit: nil)
            log.lines.append("limit \(defaults.resultsLimit)")
            // The earlier options: one page of one change.
            let options = CKFetchRecordZoneChangesOperation.ZoneOptions()
            options.resultsLimit = 1
            let first = CKFetchRecordZoneChangesOperation(recordZoneIDs: [Self.zoneID],
                optionsByRecordZoneID: [Self.zoneID: options])
            first.fetchAllChanges = false
            first.recordWasChangedBlock = { id, _ in log.lines.append("page \(id.recordName)") }
            first.recordZoneFetchResultBlock = { _, result in
                log.lines.append("more \((try? result.get())?.moreComing ?? false)")
            }
            database.add(first)
        }
        try world.settle()
        #expect(log.lines == ["limit 0", "all n1", "all n2", "all n3", "page n1", "more true"])
    }

    @Test func encryptedValuesReadAsTheTypeNamed() throws {
        let world = try makeWorld()
        try world.device("phone").run {
            let record = Self.note("n4", "four")
            record.encryptedValues["pin"] = "1234"
            let pin: String? = record.encryptedValues["pin"]
            #expect(pin == "1234")
            try await Self.container.privateCloudDatabase.save(record)
        }
        let fetched = try world.device("laptop").run { () -> String? in
            let record = try await Self.container.privateCloudDatabase.record(
                for: CKRecord.ID(recordName: "n4", zoneID: Self.zoneID))
            let pin: String? = record.encryptedValues["pin"]
            let wrong: Int? = record.encryptedValues["pin"]
            return wrong == nil ? pin : "not a string"
        }
        #expect(fetched == "1234")
    }

    @Test func earlierPerRecordBlocksRunInAppleOrder() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("laptop").run {
            let database = Self.container.privateCloudDatabase
            let fetch = CKFetchRecordsOperation(recordIDs: [
                CKRecord.ID(recordName: "n2", zoneID: Self.zoneID),
                CKRecord.ID(recordName: "gone", zoneID: Self.zoneID)])
            fetch.perRecordProgressBlock = { id, progress in
                log.lines.append("progress \(id.recordName) \(progress)")
            }
            fetch.perRecordResultBlock = { id, _ in log.lines.append("result \(id.recordName)") }
            fetch.perRecordCompletionBlock = { record, id, error in
                log.lines.append("fetched \(record?["title"] as? String ?? "-") "
                    + "\(id?.recordName ?? "-") \(Self.code(error))")
            }
            database.add(fetch)
            let stale = Self.note("n1", "stale")
            let save = CKModifyRecordsOperation(recordsToSave: [Self.note("n5", "five"), stale],
                recordIDsToDelete: nil)
            save.isAtomic = false
            save.perRecordSaveBlock = { id, _ in log.lines.append("save \(id.recordName)") }
            save.perRecordCompletionBlock = { record, error in
                log.lines.append("saved \(record.recordID.recordName) "
                    + "\(record === stale) \(Self.code(error))")
            }
            save.modifyRecordsResultBlock = { _ in log.lines.append("modified") }
            database.add(save)
        }
        try world.settle()
        #expect(log.lines == ["progress n2 1.0", "result n2", "fetched two n2 -", "result gone",
            "fetched - gone unknownItem", "save n5", "saved n5 false -", "save n1",
            "saved n1 true serverRecordChanged", "modified"])
    }

    @Test func fetchCurrentUserRecordGivesTheUsersRecord() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let expected = try await Self.container.userRecordID()
            let operation = CKFetchRecordsOperation.fetchCurrentUserRecordOperation()
            operation.perRecordResultBlock = { id, result in
                let record = try? result.get()
                log.lines.append("\(id == expected) \(record?.recordType ?? "-") "
                    + "\(record?.recordID == expected)")
            }
            operation.fetchRecordsResultBlock = { result in
                log.lines.append("done \((try? result.get()) != nil) \(operation.recordIDs == nil)")
            }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        #expect(log.lines == ["true Users true", "done true true"])
    }
}
