import CloudSim
import LocalStore

/// What checkers, expectations and reports may read of an engine: read-only, the same shape
/// for every engine, built from its disk (and its memory while it runs).
public protocol EngineObservation {
    /// The record a local model stands for, once the engine named it.
    func recordName(of model: ModelID) -> String?
    /// The local model that stands for a record, if the engine knows one.
    func model(forRecord name: String) -> ModelID?
    /// The same, for a name whose `RecordNameHash` the caller keeps (an engine that files
    /// names by it can skip hashing the name again). Defaults to `model(forRecord:)`.
    func model(forRecord name: HashedRecordName) -> ModelID?
    /// Whether the model stands for that record (`recordName(of:) == name`), asked without
    /// copying the name out. Defaults to comparing `recordName(of:)`.
    func isModel(_ model: ModelID, boundTo name: HashedRecordName) -> Bool
    /// Models (and deletions) whose changes the engine still intends to upload
    /// (`expect … pending N`); a change the engine forgot is not pending.
    var pendingCount: Int { get }
    /// Whether the engine has downloaded everything at least once with the current account,
    /// as the app would see it now (`expect … downloaded-once`).
    var hasDownloadedOnce: Bool { get }

    // What the run's leftovers list (each has a default: an engine without such a thing).

    /// The models whose changes are pending, in any order (the harness sorts).
    var pendingModels: [ModelID] { get }
    /// The record names whose deletion is pending, in any order.
    var pendingDeletions: [String] { get }
    /// Records the engine set aside after CloudKit rejected them, with the error's code.
    var rejectedRecords: [(record: String, error: String)] { get }
    /// Downloaded records the engine keeps aside (not stored yet), by record name.
    var keptAsideRecords: [String] { get }
}

extension EngineObservation {
    public func model(forRecord name: HashedRecordName) -> ModelID? {
        model(forRecord: name.name)
    }

    public func isModel(_ model: ModelID, boundTo name: HashedRecordName) -> Bool {
        recordName(of: model) == name.name
    }

    public var pendingModels: [ModelID] { [] }
    public var pendingDeletions: [String] { [] }
    public var rejectedRecords: [(record: String, error: String)] { [] }
    public var keptAsideRecords: [String] { [] }
}
