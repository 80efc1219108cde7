import CloudSim
import Kernel

/// A database of a container (Apple's `CKDatabase`) with Apple's `async` calls: each sends
/// its requests through the device it is called on, and returns when the answers arrive, at a
/// later simulated time. Fetches that touch several zones send one request per zone, in zone
/// order; `modifyRecords` is one request (see CKDatabase+ModifyRecords.swift). An
/// operation-level error is thrown as a `CKError`; per-item results come back in Apple's
/// dictionaries.
public final class CKDatabase: NSObject, @unchecked Sendable {
    // `@unchecked`: immutable; its calls run on the calling device's executor.
    /// Which database (Apple's raw values).
    public enum Scope: Int, Sendable, Hashable {
        case `public` = 1
        case `private` = 2
        case shared = 3

        var simulated: DatabaseScope {
            switch self {
            case .public: .publicDatabase
            case .private: .privateDatabase
            case .shared: .sharedDatabase
            }
        }
    }

    public let databaseScope: Scope

    init(scope: Scope) {
        databaseScope = scope
    }

    /// Saves one record (Apple's `save(_:)`); throws its error.
    @discardableResult
    public func save(_ record: CKRecord) async throws -> CKRecord {
        let results = try await modifyRecords(saving: [record], deleting: [])
        return try results.saveResults[record.recordID]?.get() ?? record
    }

    /// Deletes one record (Apple's `deleteRecord(withID:)`); throws its error.
    @discardableResult
    public func deleteRecord(withID recordID: CKRecord.ID) async throws -> CKRecord.ID {
        let results = try await modifyRecords(saving: [], deleting: [recordID])
        try results.deleteResults[recordID]?.get()
        return recordID
    }

    /// Fetches records by ID (Apple's `records(for:desiredKeys:)`), each with the fields
    /// `desiredKeys` lists (nil: every field; empty: system fields only).
    public func records(
        for ids: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil
    ) async throws -> [CKRecord.ID: Result<CKRecord, any Error>] {
        let runtime = try Self.runtime("records(for:)")
        let account = runtime.account ?? ""
        var results: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        let zones = Set(ids.map(\.zoneID)).sorted { ($0.ownerName, $0.zoneName) < ($1.ownerName,
            $1.zoneName) }
        for zone in zones { // tidy: ordered (sorted above)
            let names = ids.filter { $0.zoneID == zone }.map(\.recordName)
            let response = await runtime.request(.fetchRecords(
                scope: databaseScope.simulated, zone: zone.simulated(account: account),
                    names: names))
            guard case .recordsFetched(let items) = response else {
                throw Self.error(response, runtime)
            }
            for item in items {
                switch item {
                case .saved(let record):
                    results[CKRecord.ID(recordName: record.recordName, zoneID: zone)] =
                        .success(CKRecord.from(record, account: runtime.account)
                            .keepingOnly(desiredKeys))
                case .failed(let name, let error):
                    results[CKRecord.ID(recordName: name, zoneID: zone)] = .failure(CKError(error,
                        account: runtime.account))
                case .deleted:
                    break
                }
            }
        }
        return results
    }

    /// Fetches one record (Apple's `record(for:)`); throws `unknownItem` when there is none.
    public func record(for recordID: CKRecord.ID) async throws -> CKRecord {
        let results = try await records(for: [recordID])
        guard let result = results[recordID] else { throw CKError(.unknownItem) }
        return try result.get()
    }

    /// Saves one zone (Apple's `save(_:)` of a `CKRecordZone`).
    @discardableResult
    public func save(_ zone: CKRecordZone) async throws -> CKRecordZone {
        let results = try await modifyRecordZones(saving: [zone], deleting: [])
        return try results.saveResults[zone.zoneID]?.get() ?? zone
    }

    /// Deletes one zone and every record in it (Apple's `deleteRecordZone(withID:)`).
    @discardableResult
    public func deleteRecordZone(withID zoneID: CKRecordZone.ID) async throws -> CKRecordZone.ID {
        let results = try await modifyRecordZones(saving: [], deleting: [zoneID])
        try results.deleteResults[zoneID]?.get()
        return zoneID
    }

    /// Saves and deletes zones (Apple's `modifyRecordZones(saving:deleting:)`).
    @discardableResult
    public func modifyRecordZones(
        saving zonesToSave: [CKRecordZone], deleting zoneIDsToDelete: [CKRecordZone.ID]
    ) async throws -> (
        saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>],
        deleteResults: [CKRecordZone.ID: Result<Void, any Error>]
    ) {
        let runtime = try Self.runtime("modifyRecordZones")
        let account = runtime.account ?? ""
        let response = await runtime.request(.modifyZones(
            scope: databaseScope.simulated,
                save: zonesToSave.map { $0.zoneID.simulated(account: account) },
            delete: zoneIDsToDelete.map { $0.simulated(account: account) }))
        guard case .zonesModified(let saved, let deleted, let failed) = response else {
            throw Self.error(response, runtime)
        }
        var saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
        var deleteResults: [CKRecordZone.ID: Result<Void, any Error>] = [:]
        for zone in saved { saveResults[.of(zone,
            account: runtime.account)] = .success(CKRecordZone(zoneID: .of(zone,
                account: runtime.account))) }
        for zone in deleted { deleteResults[.of(zone, account: runtime.account)] = .success(()) }
        for failure in failed {
            let id = CKRecordZone.ID.of(failure.zone, account: runtime.account)
            let error = CKError(failure.error, account: runtime.account)
            if zoneIDsToDelete.contains(id) { deleteResults[id] =
                .failure(error) } else { saveResults[id] = .failure(error) }
        }
        return (saveResults, deleteResults)
    }

    /// Whether a zone exists (Apple's `recordZone(for:)`); throws `zoneNotFound` when not.
    public func recordZone(for zoneID: CKRecordZone.ID) async throws -> CKRecordZone {
        let runtime = try Self.runtime("recordZone(for:)")
        let response = await runtime.request(.fetchZone(
            scope: databaseScope.simulated, zone: zoneID.simulated(account: runtime.account ?? "")))
        guard case .zoneFetched = response else { throw Self.error(response, runtime) }
        return CKRecordZone(zoneID: zoneID)
    }

    static func runtime(_ call: String) throws -> DeviceRuntime {
        guard let runtime = DeviceRuntime.current else {
            preconditionFailure(
                "SyncLab: CKDatabase.\(call) was called outside a simulated device's code")
        }
        guard runtime.isRunning, runtime.failure == nil else { throw CKError(.operationCancelled) }
        return runtime
    }

    static func error(_ response: CloudResponse, _ runtime: DeviceRuntime) -> CKError {
        if case .failure(let error) = response { return CKError(error, account: runtime.account) }
        return CKError(.internalError)
    }
}

/// Apple's name for a record save policy.
public typealias CKRecordSavePolicy = CKModifyRecordsOperation.RecordSavePolicy
