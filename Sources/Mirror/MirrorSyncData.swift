import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// What the mirroring keeps on the device (Core Data keeps it in the store's own metadata
/// tables, so the engine writes it together with the store whenever both change): the
/// account's user record name (MIR-20), the zone's setup, the change tokens, each object's
/// record name and archived record (MIR-13), and the last exported history position.
public struct MirrorSyncData: EngineSyncData, BoundSyncData {
    /// MIR-20: the user record name of the account the data belongs to.
    public var userRecordName: String?
    /// The device signed into an account once (tells a login from a first setup).
    public var hadAccount = false
    /// MIR-5: the zone was created and the database subscription saved.
    public var isSetUp = false
    public var databaseToken: DatabaseChangeToken?
    /// MIR-15: the zone's token, saved with each imported page.
    public var zoneToken: ZoneChangeToken?
    /// Object → record name (a random UUID, MIR-4), and back.
    public var bindings = RecordBindings()
    /// MIR-13: the change tag of each record as last exported or imported.
    public var changeTags: [String: String] = [:]
    /// Records whose archived version is this device's own export of an update, with the keys
    /// that update changed (MIRW-1's trace only; no decision reads it).
    public var exportedKeys: [String: [String]] = [:]
    /// Records whose export of an update failed, with the keys it carried: sent again, the
    /// other devices' held exports of them are unknown even after an import (MIRW-1's trace
    /// only; no decision reads it).
    public var failedExportKeys: [String: [String]] = [:]
    /// MIR-12 / MIR-13: the newest history position the last successful export covered.
    public var exportedThrough: Int64 = 0
    /// Objects to export again whatever the history says (items that failed, MIR-22; every
    /// object after a token reset, MIR-19, or the first export of a store, MIR-29).
    public var reexport: [ModelID] = []
    /// Record deletions still to export (failed items, MIR-22).
    public var pendingDeletes: [String] = []
    /// MIR-15: relationships whose target record has not arrived: record → field → target.
    public var pendingLinks: [String: [String: String]] = [:]
    /// An import completed with the current account (`downloaded-once`).
    public var hasImported = false
    /// What was pending after the last event (MIR-12), as computed from the store's history:
    /// the history is on disk, so a killed device, with no engine in memory, still has it
    /// pending (`expect … pending N`, ENGINES.md §0.2). No decision reads it.
    public var lastPendingModels: [ModelID] = []
    public var lastPendingDeletes: [String] = []

    public init() {}

    /// Forgets a model's record name, with what the record's name keys.
    mutating func forget(_ model: ModelID) {
        guard let name = bindings.forget(model) else { return }
        changeTags[name] = nil
        pendingLinks[name] = nil
        failedExportKeys[name] = nil
    }

    /// Everything known about iCloud's data is forgotten (a reset, MIR-17..20); the history
    /// position moves on, so nothing saved before is exported again unless `reexport` says.
    mutating func forgetCloud(through position: Int64) {
        isSetUp = false
        databaseToken = nil
        zoneToken = nil
        bindings = RecordBindings()
        changeTags = [:]
        exportedKeys = [:]
        failedExportKeys = [:]
        reexport = []
        pendingDeletes = []
        pendingLinks = [:]
        exportedThrough = position
        hasImported = false
    }
}
