import LocalStore
import SyncContract

/// Sync data that keeps its record names in `RecordBindings`.
public protocol BoundSyncData {
    var bindings: RecordBindings { get }
}

/// An observation over sync data that holds bindings: the record names come from them, so
/// the engine writes only what it observes beyond them (pending work, downloads).
public protocol BoundObservation: EngineObservation {
    associatedtype Data: BoundSyncData
    var syncData: Data { get }
}

extension BoundObservation {
    @inlinable
    public func recordName(of model: ModelID) -> String? { syncData.bindings.name(of: model) }

    @inlinable
    public func model(forRecord name: String) -> ModelID? {
        syncData.bindings.model(named: name)
    }
}
