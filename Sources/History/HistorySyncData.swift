import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// What `history` keeps on the device's disk (docs/HISTORY.md, "What the engine keeps"): the
/// persisted history token (the seed's `tokenStore`, UserDefaults), the two levels of
/// CloudKit change tokens, each model's `recordName`, `ownerName` and `privateRecordData`.
public struct HistorySyncData: EngineSyncData, BoundSyncData {
    /// HIS-7: the history token, written only by a successful push (`markAsPushed`).
    public var persistedToken: HistoryToken?
    /// HIS-22: the database change token of each scope, by the scope's raw value.
    public var databaseTokens: [String: DatabaseChangeToken] = [:]
    /// HIS-22: the zone change token of each zone, by `"scope zone"` (`HistorySyncData.key`).
    public var zoneTokens: [String: ZoneChangeToken] = [:]
    /// HIS-2: model → `recordName` (a UUID), and back.
    public var bindings = RecordBindings()
    /// HIS-1, HIS-19: the `ownerName` of models a sharer owns (absent: `__defaultOwner__`).
    /// Kept after a deletion, so that the tombstone routes the deletion (HIS-17 step 6).
    public var owners: [ModelID: String] = [:]
    /// HIS-4: `privateRecordData`, the record's system fields (the record with no fields).
    public var systemFields: [ModelID: CloudRecord] = [:]
    /// A pull began and has not ended (HIS-38: the next launch's pull resumes from the
    /// saved zone tokens). Diagnostic: no decision reads it.
    public var pullInProgress = false

    public init() {}

    static func key(_ scope: DatabaseScope, _ zone: ZoneID) -> String {
        "\(scope.rawValue) \(zone)"
    }

    /// HIS-26, HIS-27: every CloudKit change token is forgotten.
    mutating func resetTokens() {
        databaseTokens = [:]
        zoneTokens = [:]
    }
}
