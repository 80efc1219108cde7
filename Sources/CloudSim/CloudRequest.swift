import Kernel

/// `CKModifyRecordsOperation.RecordSavePolicy` (CLOUDKIT.md section 10.1).
public enum SavePolicy: Int, Hashable, Sendable {
    case ifServerRecordUnchanged = 0
    case changedKeys = 1
    case allKeys = 2
}

/// One record of a modify request, with the keys the client changed since it last saw it.
public struct RecordSave: Hashable, Sendable {
    /// The client's copy; `changeTag` is the tag the client last saw (nil for a new record).
    public var record: CloudRecord
    /// Keys edited locally (`changedKeys()`); under `allKeys` every key of `record` is written.
    /// A changed key absent from `record.fields` is cleared on the server.
    public var changedKeys: [String]

    public init(record: CloudRecord, changedKeys: [String]) {
        self.record = record
        self.changedKeys = changedKeys
    }
}

/// An opaque database change token (`CKServerChangeToken` for a database feed).
public struct DatabaseChangeToken: Hashable, Sendable {
    public var account: String
    public var scope: DatabaseScope
    public var sequence: Int64
    /// The account's token epoch when it was handed out; `expire-tokens` starts a new epoch.
    public var epoch: Int64

    public init(account: String, scope: DatabaseScope, sequence: Int64, epoch: Int64) {
        self.account = account
        self.scope = scope
        self.sequence = sequence
        self.epoch = epoch
    }
}

/// An opaque zone change token (`CKServerChangeToken` for one zone's feed).
public struct ZoneChangeToken: Hashable, Sendable {
    public var zone: ZoneID
    /// Which life of the zone this token belongs to: a deleted and re-created zone starts anew.
    public var incarnation: Int64
    public var sequence: Int64
    public var epoch: Int64

    public init(zone: ZoneID, incarnation: Int64, sequence: Int64, epoch: Int64) {
        self.zone = zone
        self.incarnation = incarnation
        self.sequence = sequence
        self.epoch = epoch
    }
}

/// A request a device sends to the simulated CloudKit.
public enum CloudRequest: Hashable, Sendable {
    /// `CKContainer.accountStatus()`.
    case accountStatus
    /// `fetchUserRecordID()`.
    case fetchUserRecordID
    /// `CKModifyRecordZonesOperation`; saving an existing zone is a harmless upsert.
    case modifyZones(scope: DatabaseScope, save: [ZoneID], delete: [ZoneID])
    /// Saves this device's `CKDatabaseSubscription` on the database (idempotent).
    case saveDatabaseSubscription(scope: DatabaseScope)
    /// `CKFetchDatabaseChangesOperation` (nil token: from the beginning).
    case fetchDatabaseChanges(scope: DatabaseScope, token: DatabaseChangeToken?)
    /// One page of `CKFetchRecordZoneChangesOperation` (nil token: every live record).
    case fetchZoneChanges(
        scope: DatabaseScope, zone: ZoneID, token: ZoneChangeToken?, resultsLimit: Int)
    /// `CKModifyRecordsOperation`.
    case modifyRecords(
        scope: DatabaseScope,
        zone: ZoneID,
        saves: [RecordSave],
        deletes: [String],
        policy: SavePolicy,
        atomic: Bool
    )
    /// `CKFetchRecordsOperation`.
    case fetchRecords(scope: DatabaseScope, zone: ZoneID, names: [String])

    /// A short name for traces.
    public var kind: String {
        switch self {
        case .accountStatus: return "accountStatus"
        case .fetchUserRecordID: return "fetchUserRecordID"
        case .modifyZones: return "modifyZones"
        case .saveDatabaseSubscription: return "saveSubscription"
        case .fetchDatabaseChanges: return "fetchDatabaseChanges"
        case .fetchZoneChanges: return "fetchZoneChanges"
        case .modifyRecords: return "modifyRecords"
        case .fetchRecords: return "fetchRecords"
        }
    }
}
