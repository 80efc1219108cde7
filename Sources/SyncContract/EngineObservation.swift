import LocalStore

/// What checkers, expectations and reports may read of an engine: read-only, the same shape
/// for every engine, built from its disk (and its memory while it runs).
public protocol EngineObservation {
    /// The record a local model stands for, once the engine named it.
    func recordName(of model: ModelID) -> String?
    /// The local model that stands for a record, if the engine knows one.
    func model(forRecord name: String) -> ModelID?
    /// Models (and deletions) whose changes the engine still intends to upload
    /// (`expect … pending N`); a change the engine forgot is not pending.
    var pendingCount: Int { get }
    /// Whether the engine has downloaded everything at least once with the current account,
    /// as the app would see it now (`expect … downloaded-once`).
    var hasDownloadedOnce: Bool { get }
}
