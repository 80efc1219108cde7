import CKSyncEngineSim
import CloudSim

/// `CKSyncEngineDelegate` with Apple's `async` methods. The host calls them one at a time, in
/// the simulated engine's order (docs/CKSYNCENGINE.md), each as a task on the kernel's
/// executor that must finish before the engine goes on, exactly as Apple serializes them.
/// An `actor` conforms, as in Apple's sample app.
public protocol CKSyncEngineDelegate: AnyObject, Sendable {
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch?
}

extension CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch {
    /// Apple's `init?(pendingChanges:recordProvider:) async`: walks the pending changes in
    /// order, asks the provider for each save's record (skipping a save it answers nil for),
    /// up to `maximumItemCount` items; nil when nothing was added.
    public init?(
        pendingChanges: [CKSyncEngine.PendingRecordZoneChange],
        recordProvider: @Sendable (RecordID) async -> RecordSave?
    ) async {
        var saves: [RecordSave] = []
        var deletes: [RecordID] = []
        for change in pendingChanges {
            if saves.count + deletes.count >= Self.maximumItemCount { break }
            switch change {
            case .saveRecord(let id):
                if let record = await recordProvider(id) { saves.append(record) }
            case .deleteRecord(let id):
                deletes.append(id)
            }
        }
        if saves.isEmpty && deletes.isEmpty { return nil }
        self.init(recordsToSave: saves, recordIDsToDelete: deletes, atomicByZone: false)
    }
}
