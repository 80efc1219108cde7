import CKSyncEngineSim
import LocalStore
import SyncContract

/// What a user's engine keeps on disk besides the store: CKSyncEngine's state serialization
/// (persist it on every `stateUpdate`) and whatever it needs to name records (the record of
/// each model, its last system fields). SyncLab's checkers read the naming through it.
public protocol EngineMetadata: EngineSyncData {
    /// The state serialization the app last persisted; nil on a first run.
    var stateSerialization: CKSyncEngine.State.Serialization? { get }
    /// The record name a local model is synchronized as, once the engine named it.
    func recordName(of model: ModelID) -> String?
    /// The local model a record stands for, if the engine knows one.
    func model(forRecord name: String) -> ModelID?
}

/// A sync engine written on CKSyncEngine, as an app would write it: the delegate (Apple's
/// `async` shape), plus what the app does around it, each called on the kernel's executor.
///
/// It is made at each launch of the app (its memory is lost at a kill, the database
/// survives); `LocalDatabase` is the app's store and the metadata file next to it.
public protocol SyncLabEngine: CKSyncEngineDelegate {
    associatedtype Metadata: EngineMetadata

    /// The app launched; `database` is what its disk holds.
    init(database: LocalDatabase<Metadata>)

    /// The app saved its store (its own edits, never the engine's saves): the saved
    /// transactions in order. The engine tells CKSyncEngine what to send
    /// (`syncEngine.state.add(pendingRecordZoneChanges:)`).
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async
}
