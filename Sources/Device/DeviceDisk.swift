import Engines
import LocalStore

/// What a device keeps on disk: the store and the engine's sync data. It survives `kill`.
public struct DeviceDisk: Hashable, Sendable {
    public var store: Store
    public var syncData: SDSSyncData

    public init(store: Store, syncData: SDSSyncData = SDSSyncData()) {
        self.store = store
        self.syncData = syncData
    }
}
