import Kernel

/// `CKModifyRecordsOperation.RecordSavePolicy` ([CKModifyRecordsOperation.RecordSavePolicy],
/// docs/CLOUDSIM.md row 18).
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
///
/// A token of the owner's private database and a token of a participant's shared database
/// are never interchangeable, even for the same zone: each feed has its own sequence.
public struct ZoneChangeToken: Hashable, Sendable {
    public var zone: ZoneID
    /// Which life of the zone this token belongs to: a deleted and re-created zone starts anew.
    /// For a shared-database token: which life of the participant's view of the zone.
    public var incarnation: Int64
    public var sequence: Int64
    public var epoch: Int64
    /// Nil for a token of the owner's private database; for a token of a shared database,
    /// the participant whose view of the zone it belongs to.
    public var participant: String? = nil

    public init(zone: ZoneID, incarnation: Int64, sequence: Int64, epoch: Int64) {
        self.zone = zone
        self.incarnation = incarnation
        self.sequence = sequence
        self.epoch = epoch
    }

    public init(
        zone: ZoneID, participant: String, incarnation: Int64, sequence: Int64, epoch: Int64
    ) {
        self.init(zone: zone, incarnation: incarnation, sequence: sequence, epoch: epoch)
        self.participant = participant
    }

    /// The database whose feed the token belongs to.
    public var scope: DatabaseScope { participant == nil ? .privateDatabase : .sharedDatabase }
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
    /// A sharing step on a share of the owner's zone `zone`: invite, accept, remove a
    /// participant, stop, leave (what `UICloudSharingController`, `CKAcceptSharesOperation`
    /// and deleting a `CKShare` do). Answered with `.shareModified`.
    case share(zone: ZoneID, target: ShareTarget, action: ShareAction)
    /// `CKDatabase.fetch(withRecordZoneID:)`: whether a zone exists (answered `.zoneFetched`,
    /// or `zoneNotFound` / `userDeletedZone`). See CloudService+QuerySubscriptions.swift.
    case fetchZone(scope: DatabaseScope, zone: ZoneID)
    /// `CKDatabase.fetch(withSubscriptionID:)`: a subscription of the account by its ID
    /// (answered `.subscriptionFetched`, or `unknownItem` when the ID is unknown).
    case fetchSubscription(scope: DatabaseScope, id: String)
    /// `CKDatabase.save(_:)` of a `CKQuerySubscription` (answered `.subscriptionSaved`).
    indirect case saveQuerySubscription(scope: DatabaseScope, QuerySubscription)
    /// `CKDatabase.save(_:)` of a `CKRecordZoneSubscription` (answered `.subscriptionSaved`).
    indirect case saveZoneSubscription(scope: DatabaseScope, ZoneSubscription)
    /// `CKDatabase.save(_:)` of a named `CKDatabaseSubscription`, in the private or shared
    /// database (answered `.subscriptionSaved`).
    indirect case saveNamedDatabaseSubscription(scope: DatabaseScope, DatabaseSubscription)
    /// `CKDatabase.delete(withSubscriptionID:)`: a subscription of any kind by its ID
    /// (answered `.subscriptionDeleted`, or `unknownItem` when the ID is unknown).
    case deleteSubscription(scope: DatabaseScope, id: String)
    /// `CKDatabase.fetchAllSubscriptions`: every subscription of the database (answered
    /// `.subscriptionsFetched`, sorted by ID).
    case fetchAllSubscriptions(scope: DatabaseScope)
    /// `CKQueryOperation`: one page of a query (answered `.recordsQueried`); `cursor` from the
    /// previous page continues it, `resultsLimit` ≤ 0 is 100.
    indirect case queryRecords(
        scope: DatabaseScope, RecordQuery, resultsLimit: Int, cursor: QueryCursor?)
    /// `CKFetchShareParticipantsOperation`: the account a lookup names (answered
    /// `.userFound`, or `unknownItem` when the cloud knows no such user).
    indirect case lookUpUser(UserLookup)
    /// `CKFetchShareMetadataOperation`: the metadata of the share at `url`, with its root
    /// record when `rootRecord` (answered `.shareMetadataFetched`, or `unknownItem`).
    indirect case fetchShareMetadata(url: String, rootRecord: Bool)

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
        case .share(_, _, let action): return action.name
        case .fetchZone: return "fetchZone"
        case .fetchSubscription: return "fetchSubscription"
        case .saveQuerySubscription: return "saveQuerySubscription"
        case .saveZoneSubscription: return "saveZoneSubscription"
        case .saveNamedDatabaseSubscription: return "saveNamedDatabaseSubscription"
        case .deleteSubscription: return "deleteSubscription"
        case .fetchAllSubscriptions: return "fetchAllSubscriptions"
        case .queryRecords: return "queryRecords"
        case .lookUpUser: return "lookUpUser"
        case .fetchShareMetadata: return "fetchShareMetadata"
        }
    }
}
