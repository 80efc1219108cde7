import SyncLabEngineKit

/// The file the notes app keeps next to its store: CKSyncEngine's state, and how each note is
/// synchronized (its record name, the last record the server returned, its unsent keys).
public struct NotesMetadata: EngineMetadata {
    public var stateSerialization: CKSyncEngine.State.Serialization?
    public var recordNames: [ModelID: String] = [:]
    public var models: [String: ModelID] = [:]
    /// The last record the server returned for each record name: its system fields (the
    /// change tag a save must carry).
    public var lastKnownRecords: [String: CloudRecord] = [:]
    /// Keys edited locally and not yet saved to the server, by record name.
    public var unsentKeys: [String: [String]] = [:]
    /// The zone was saved to the server.
    public var zoneSaved = false

    public init() {}

    public func recordName(of model: ModelID) -> String? { recordNames[model] }

    public func model(forRecord name: String) -> ModelID? { models[name] }
}
