import CKSyncEngineSim
import CloudSim

extension CKSyncEngine {
    /// The engine's state (Apple's `CKSyncEngine.State`): the pending changes the app added,
    /// and the serialization to persist on every `stateUpdate`.
    public final class State: @unchecked Sendable {
        // `@unchecked`: used on the device's executor only, as Apple's is used on the engine's.
        /// The persisted form (Codable, as Apple's): tokens, pending changes, the account.
        public typealias Serialization = CKSyncEngineSim.CKSyncEngine.State.Serialization

        unowned let engine: CKSyncEngine

        init(engine: CKSyncEngine) {
            self.engine = engine
        }

        private var sim: SimEngine.State { engine.sim.state }
        private var account: String { engine.account }

        public var pendingRecordZoneChanges: [PendingRecordZoneChange] {
            engine.check("state")
            return sim.pendingRecordZoneChanges.map { .init($0, account: account) }
        }

        public var pendingDatabaseChanges: [PendingDatabaseChange] {
            engine.check("state")
            return sim.pendingDatabaseChanges.map { .init($0, account: account) }
        }

        public var hasPendingUntrackedChanges: Bool {
            get { sim.hasPendingUntrackedChanges }
            set { engine.check("state"); sim.hasPendingUntrackedChanges = newValue }
        }

        public var zoneIDsWithUnfetchedServerChanges: [CKRecordZone.ID] {
            sim.zoneIDsWithUnfetchedServerChanges.map { .of($0, account: account) }
        }

        public func add(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
            engine.check("state.add")
            sim.add(pendingRecordZoneChanges: changes.map { $0.simulated(account: account) })
        }

        public func remove(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
            engine.check("state.remove")
            sim.remove(pendingRecordZoneChanges: changes.map { $0.simulated(account: account) })
        }

        public func add(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
            engine.check("state.add")
            sim.add(pendingDatabaseChanges: changes.map { $0.simulated(account: account) })
        }

        public func remove(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
            engine.check("state.remove")
            sim.remove(pendingDatabaseChanges: changes.map { $0.simulated(account: account) })
        }
    }
}
