import LocalStore

/// One write of an engine to its device's disk: the store, its sync data, or both at once.
///
/// Writes are effects: the device carries them out in the order the engine returned them,
/// so a kill (a trigger at a probe point, or the contract suite's kill after the N-th
/// write) can fall between any two of them. What the engine changed in its context and
/// never wrote is gone when the event ends.
public struct DiskWrite: Sendable {
    /// The whole store as the engine left it, or nil when the write leaves the store alone.
    public var store: Store?
    /// The engine's sync data, or nil when the write leaves it alone.
    public var syncData: SyncDataBox?

    public init(store: Store? = nil, syncData: SyncDataBox? = nil) {
        // Matched, not compared with `!=`: that copied the store and the box on every write.
        if case .none = store, case .none = syncData {
            preconditionFailure("a write writes something")
        }
        self.store = store
        self.syncData = syncData
    }
}
