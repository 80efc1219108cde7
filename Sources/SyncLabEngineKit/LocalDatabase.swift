import CloudSim
import Kernel
import LocalStore
import SyncContract

/// The app's local database as a user's engine sees it: the store (models, saved in
/// transactions with a history) and the engine's metadata file, both on the device's disk.
///
/// Reads see the disk as it is now plus this event's saves. `save(_:)` and `saveMetadata()`
/// write to the disk at this point of the run (a kill can fall between two writes); a change
/// to `metadata` that is never saved is gone at the end of the event, as an unsaved file is.
/// Use it from the engine's code only (the kernel's executor), never from another thread.
public final class LocalDatabase<Metadata: EngineMetadata>: @unchecked Sendable {
    // `@unchecked`: used only on the kernel executor (one job at a time), which `check()` enforces.
    let core: HostCore
    var workingStore: Store
    var workingMetadata: Metadata
    var historyPosition: Int64

    init(core: HostCore, store: Store, syncData: HostSyncData<Metadata>) {
        self.core = core
        workingStore = store
        workingMetadata = syncData.metadata
        historyPosition = syncData.historyPosition
    }

    /// The store's author for the engine's own saves, so they never come back as local edits.
    public var author: String { core.author }

    /// The device the app runs on, and its account (nil when signed out).
    public var device: String { core.context.device }
    public var account: String? { core.context.account }

    /// The store, as the disk holds it plus this event's saves.
    public var store: Store {
        check()
        return workingStore
    }

    /// The engine's metadata: change it, then `saveMetadata()` (or `save(_:)`) to keep it.
    public var metadata: Metadata {
        get { check(); return workingMetadata }
        set { check(); workingMetadata = newValue }
    }

    /// A new model identifier for an insert.
    public func makeModelID() -> ModelID {
        check()
        return workingStore.makeModelID()
    }

    /// Saves a transaction as the engine (downloaded changes) and writes the store and the
    /// metadata to disk together, atomically.
    @discardableResult
    public func save(_ transaction: Transaction) throws(StoreError) -> HistoryEntry? {
        check()
        let entry = try workingStore.save(transaction, author: author)
        core.emit([.write(DiskWrite(store: workingStore, syncData: box))])
        return entry
    }

    /// Writes the metadata to disk (the store is left alone).
    public func saveMetadata() {
        check()
        core.emit([.write(DiskWrite(syncData: box))])
    }

    var box: SyncDataBox {
        SyncDataBox(HostSyncData(metadata: workingMetadata, historyPosition: historyPosition))
    }

    func check() {
        if !core.executor.isCurrent {
            core.fail("the engine used its LocalDatabase outside the simulation's executor "
                + "(from an unstructured Task {} or another thread)")
        }
    }
}

/// What the host keeps on the device's disk for a user's engine: its metadata, and the
/// position in the store's history up to which the app's saves were handed to the engine.
public struct HostSyncData<Metadata: EngineMetadata>: EngineSyncData {
    public var metadata: Metadata
    public var historyPosition: Int64

    public init() {
        metadata = Metadata()
        historyPosition = 0
    }

    init(metadata: Metadata, historyPosition: Int64) {
        self.metadata = metadata
        self.historyPosition = historyPosition
    }
}
