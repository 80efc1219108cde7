/// A call the app makes on its synchronizer, as the scenario format writes it.
///
/// The format knows every such statement; an engine supports the ones its profile lists
/// (`EngineProfile.statements`), and the validator refuses the others with an error naming
/// the engine, so an engine never receives a call it did not declare.
public enum AppCall: Hashable, Sendable {
    /// `sync`: `forceDownload()` / "Sync Now".
    case syncNow
    /// `stop`: synchronizing pauses (local changes are still recorded).
    case stop
    /// `start`: synchronizing resumes.
    case start
    /// `reset-sync-data [then delete-all]`: forget everything known about iCloud's data.
    case resetSyncData(deleteAll: Bool)
    /// `initialize-schema`: create every record type and field in iCloud.
    case initializeSchema

    /// The statement keyword of the call.
    public var statement: String {
        switch self {
        case .syncNow: return "sync"
        case .stop: return "stop"
        case .start: return "start"
        case .resetSyncData: return "reset-sync-data"
        case .initializeSchema: return "initialize-schema"
        }
    }
}
