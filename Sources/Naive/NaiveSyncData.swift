import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// What `naive` keeps on the device's disk (docs/NAIVE.md, "What the engine keeps"): the
/// article's one database change token, each model's record name (the article's `Note.id`),
/// and a diagnostic ledger that no decision reads.
public struct NaiveSyncData: EngineSyncData, BoundSyncData {
    /// The article's `cloudkit.privateDatabaseChangeToken` (NAIVE-7).
    public var databaseToken: DatabaseChangeToken?
    /// Model → record name (`<Entity>_<UUID>`, NAIVE-1), and back.
    public var bindings = RecordBindings()
    /// Diagnostic ledger: operations created and not sent yet (or waiting for a retry), so the
    /// next launch can name what a kill lost (NAIVEW-2). Never read by a decision.
    public var unsentOperations: [UnsentOperation] = []
    /// Diagnostic ledger: zones whose fetch began after the database token was saved and has
    /// not completed (NAIVEW-6). Never read by a decision.
    public var unfinishedZoneFetches: [ZoneID] = []

    public init() {}
}

/// An operation the diagnostic ledger remembers until its request leaves.
public struct UnsentOperation: Hashable, Sendable {
    /// The operation's number within its launch (the ledger is emptied at every launch).
    public var operation: Int
    public var recordName: String
    /// `save` or `delete`.
    public var kind: String
}
