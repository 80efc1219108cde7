import CKSyncEngineSim
import CloudSim
import Kernel
import SyncContract

/// `CKSyncEngine` as a user's engine sees it: Apple's names and Apple's `async` shape, over
/// SyncLab's simulated sync engine (docs/CKSYNCENGINE.md) and the kernel's executor.
///
/// The value types are the simulated engine's (`CKSyncEngine.Event`, `.State`,
/// `.RecordZoneChangeBatch`, …); this class adds what an app calls: `state`,
/// `fetchChanges()` and `sendChanges()` (which return once the operation ran, in simulated
/// time), and SyncLab's additions for tracing decisions with catalogue IDs and passing
/// probe points. It is `Sendable` so actors can take it, and checks that every call comes
/// from the kernel's executor: calling it from elsewhere is a runtime error of the run.
public final class CKSyncEngine: @unchecked Sendable {
    // `@unchecked`: used only on the kernel executor (one job at a time), which `check()` enforces.
    public typealias Event = CKSyncEngineSim.CKSyncEngine.Event
    public typealias State = CKSyncEngineSim.CKSyncEngine.State
    public typealias PendingRecordZoneChange = CKSyncEngineSim.CKSyncEngine.PendingRecordZoneChange
    public typealias PendingDatabaseChange = CKSyncEngineSim.CKSyncEngine.PendingDatabaseChange
    public typealias RecordZoneChangeBatch = CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch
    public typealias SendChangesContext = CKSyncEngineSim.CKSyncEngine.SendChangesContext
    public typealias FetchChangesContext = CKSyncEngineSim.CKSyncEngine.FetchChangesContext
    public typealias SendChangesOptions = CKSyncEngineSim.CKSyncEngine.SendChangesOptions
    public typealias FetchChangesOptions = CKSyncEngineSim.CKSyncEngine.FetchChangesOptions
    public typealias SyncReason = CKSyncEngineSim.CKSyncEngine.SyncReason
    public typealias StateUpdate = CKSyncEngineSim.CKSyncEngine.StateUpdate
    public typealias AccountChange = CKSyncEngineSim.CKSyncEngine.AccountChange
    public typealias FetchedDatabaseChanges = CKSyncEngineSim.CKSyncEngine.FetchedDatabaseChanges
    public typealias FetchedRecordZoneChanges = CKSyncEngineSim.CKSyncEngine.FetchedRecordZoneChanges
    public typealias SentDatabaseChanges = CKSyncEngineSim.CKSyncEngine.SentDatabaseChanges
    public typealias SentRecordZoneChanges = CKSyncEngineSim.CKSyncEngine.SentRecordZoneChanges

    let host: HostCore
    /// `configuration.database`: the database this engine synchronizes, for direct calls.
    public let database: CKDatabase

    init(host: HostCore) {
        self.host = host
        database = CKDatabase(host: host, scope: host.sim.database)
    }

    /// `CKSyncEngine.state`: pending changes and the serialization.
    public var state: State { check(); return host.sim.state }

    /// The executor the engine's code runs on (for `Task(executorPreference:)`).
    public var executor: KernelExecutor { host.executor }

    /// `fetchChanges(_:)`: a manual fetch; returns when the engine has no operation left to
    /// run (simulated time has passed meanwhile). Not from inside a delegate callback.
    public func fetchChanges(_ options: FetchChangesOptions = FetchChangesOptions()) async {
        check()
        guard host.enterOperation("fetchChanges()") else { return }
        host.emit(host.sim.fetchChanges(options))
        await host.untilIdle()
    }

    /// `sendChanges(_:)`: a manual send; returns when the engine has no operation left to
    /// run. Not from inside a delegate callback.
    public func sendChanges(_ options: SendChangesOptions = SendChangesOptions()) async {
        check()
        guard host.enterOperation("sendChanges()") else { return }
        host.emit(host.sim.sendChanges(options))
        await host.untilIdle()
    }

    /// Waits `duration` of simulated time (a kernel timer), never the wall clock.
    public func sleep(for duration: SimTime) async {
        check()
        await host.sleep(duration)
    }

    /// The simulated time now.
    public var now: SimTime { check(); return host.context.now }

    // MARK: SyncLab's additions

    /// Records a decision in the trace, with the catalogue IDs that governed it (`rules`).
    public func trace(_ kind: String, _ details: [(String, String)] = [], rules: [String] = []) {
        check()
        host.emit([.trace(kind: kind, details: details.map { TraceField($0.0, .string($0.1)) }, rules: rules)])
    }

    /// Passes one of the engine's own probe points (listed in its profile): triggers written
    /// `at NAME` act here; the code goes on at once (the host answers the resume).
    public func probe(_ name: String) {
        check()
        host.emit([.probe(name)])
    }

    func check() {
        if !host.executor.isCurrent {
            host.fail("the engine called CKSyncEngine outside the simulation's executor "
                + "(from an unstructured Task {} or another thread)")
        }
    }
}
