import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// A sync engine of the kind apps wrote before CKSyncEngine, from Apple's documentation alone:
/// operations chained by dependencies, a database subscription, change tokens archived in
/// files, system fields kept per record, and conflicts answered from the server record.
final class LegacyItemSync: @unchecked Sendable {
    let container = CKContainer(identifier: "iCloud.com.example.legacy")
    let zoneID = CKRecordZone.ID(zoneName: "Items", ownerName: CKCurrentUserDefaultName)
    var databaseToken: CKServerChangeToken?
    var zoneToken: CKServerChangeToken?
    var systemFields: [String: Data] = [:]
    var items: [String: String] = [:]
    var log: [String] = []

    var database: CKDatabase { container.privateCloudDatabase }

    func setUp() {
        let zone = CKModifyRecordZonesOperation(
            recordZonesToSave: [CKRecordZone(zoneID: zoneID)], recordZoneIDsToDelete: nil)
        zone.qualityOfService = .userInitiated
        zone.modifyRecordZonesResultBlock = { [self] result in
            log.append("zone \((try? result.get()) != nil)")
        }
        let subscription = CKDatabaseSubscription(subscriptionID: "items")
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        subscription.notificationInfo = info
        let subscribe = CKModifySubscriptionsOperation(
            subscriptionsToSave: [subscription], subscriptionIDsToDelete: nil)
        subscribe.addDependency(zone)
        subscribe.modifySubscriptionsResultBlock = { [self] result in
            log.append("subscription \((try? result.get()) != nil)")
        }
        let operations: [Operation] = [subscribe, zone]
        for case let operation as CKDatabaseOperation in operations { database.add(operation) }
    }

    func save(_ name: String, _ title: String) {
        let record = self.record(named: name)
        record["title"] = title as NSString
        let operation = CKModifyRecordsOperation(recordsToSave: [record], recordIDsToDelete: nil)
        operation.savePolicy = .ifServerRecordUnchanged
        operation.perRecordSaveBlock = { [self] id, result in
            switch result {
            case .success(let saved): keep(saved)
            case .failure(let error as CKError) where error.code == .serverRecordChanged:
                if let server = error.serverRecord {
                    keep(server)
                    log.append("conflict \(id.recordName): server has \(server["title"] ?? "")")
                }
            case .failure(let error): log.append("failed \(error)")
            }
        }
        operation.modifyRecordsResultBlock = { [self] result in
            if case .failure(let error as CKError) = result {
                log.append("modify \(error.code) \(error.partialErrorsByItemID?.count ?? 0)")
            }
        }
        database.add(operation)
    }

    func record(named name: String) -> CKRecord {
        if let data = systemFields[name],
           let coder = try? NSKeyedUnarchiver(forReadingFrom: data) {
            coder.requiresSecureCoding = true
            if let record = CKRecord(coder: coder) { return record }
        }
        return CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
    }

    func keep(_ record: CKRecord) {
        let coder = NSKeyedArchiver(requiringSecureCoding: true)
        record.encodeSystemFields(with: coder)
        coder.finishEncoding()
        systemFields[record.recordID.recordName] = coder.encodedData
        items[record.recordID.recordName] = record["title"] as? String
    }

    func fetchChanges() {
        let changes = CKFetchDatabaseChangesOperation(previousServerChangeToken: databaseToken)
        var zones: [CKRecordZone.ID] = []
        changes.fetchAllChanges = true
        changes.recordZoneWithIDChangedBlock = { zones.append($0) }
        changes.changeTokenUpdatedBlock = { [self] in databaseToken = $0 }
        changes.fetchDatabaseChangesResultBlock = { [self] result in
            switch result {
            case .success(let (token, _)):
                databaseToken = token
                if !zones.isEmpty { fetchZoneChanges(zones) }
            case .failure(let error as CKError) where error.code == .changeTokenExpired:
                databaseToken = nil
            case .failure(let error):
                log.append("database \(error)")
            }
        }
        database.add(changes)
    }

    func fetchZoneChanges(_ zones: [CKRecordZone.ID]) {
        let configuration = CKFetchRecordZoneChangesOperation.ZoneConfiguration()
        configuration.previousServerChangeToken = zoneToken
        let operation = CKFetchRecordZoneChangesOperation(
            recordZoneIDs: zones, configurationsByRecordZoneID: [zoneID: configuration])
        operation.recordWasChangedBlock = { [self] _, result in
            if let record = try? result.get() { keep(record) }
        }
        operation.recordWithIDWasDeletedBlock = { [self] id, _ in
            items[id.recordName] = nil
        }
        operation.recordZoneFetchResultBlock = { [self] _, result in
            if let (token, _, _) = try? result.get() { zoneToken = token }
        }
        database.add(operation)
    }

    /// The token as apps keep it between launches.
    func archivedToken() throws -> CKServerChangeToken? {
        guard let zoneToken else { return nil }
        let data = try NSKeyedArchiver.archivedData(withRootObject: zoneToken,
            requiringSecureCoding: true)
        return try NSKeyedUnarchiver.unarchivedObject(ofClass: CKServerChangeToken.self, from: data)
    }
}

@Suite struct LegacyOperationEngineTests {
    @Test func chainedOperationsSyncTwoDevicesAndAnswerAConflict() throws {
        let world = try SimulatedWorld(seed: 9, devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (mine, theirs) = (LegacyItemSync(), LegacyItemSync())
        try phone.run { mine.setUp() }
        try world.settle()
        #expect(mine.log == ["zone true", "subscription true"])
        try phone.run { mine.save("i1", "milk") }
        try world.settle()
        try laptop.run { theirs.fetchChanges() }
        try world.settle()
        #expect(theirs.items == ["i1": "milk"])
        #expect(try laptop.run { try theirs.archivedToken() } != nil)
        try laptop.run { theirs.save("i1", "oat milk") }
        try world.settle()
        try phone.run { mine.save("i1", "soy milk") }
        try world.settle()
        #expect(mine.log.contains("conflict i1: server has oat milk"), "\(mine.log)")
        #expect(mine.items == ["i1": "oat milk"])
    }
}
