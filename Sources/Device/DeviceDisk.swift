import LocalStore
import SyncContract

/// What a device keeps on disk: the store and the engine's sync data (in the engine's own
/// format, which the device cannot read). It survives `kill`.
public struct DeviceDisk: Hashable, Sendable {
    public var store: Store
    public var syncData: SyncDataBox

    public init(store: Store, syncData: SyncDataBox = SyncDataBox()) {
        self.store = store
        self.syncData = syncData
    }

    /// Carries out one write of the engine.
    public mutating func apply(_ write: DiskWrite) {
        if let store = write.store { self.store = store }
        if let syncData = write.syncData { self.syncData = syncData }
    }
}
