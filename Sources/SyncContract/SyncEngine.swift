import CloudSim
import Kernel
import LocalStore

/// The sync data an engine keeps on disk; `init()` is a device that never ran the engine.
public protocol EngineSyncData: Hashable, Sendable {
    init()
}

/// A sync engine: a deterministic state machine that handles one event and returns effects.
///
/// It talks to the cloud only through requests the kernel delivers, writes to disk only
/// through `.write` effects, and records every decision a rule governs with the rule's ID.
/// Its memory (the object) is thrown away at a kill; its disk survives.
public protocol SyncEngine: AnyObject {
    associatedtype SyncData: EngineSyncData

    func handle(_ event: EngineEvent, context: inout EngineContext<SyncData>) -> [EngineEffect]

    /// The state the app would show now.
    var state: EngineState { get }
    /// True when nothing is running or due except timers.
    func isIdle(now: SimTime) -> Bool
    /// `autosync off` / `on`: whether saves and pushes start synchronizations.
    func setAutosync(_ enabled: Bool)

    /// The app rolled a transaction back: nothing of it reached the store (`rollback`). An
    /// engine whose catalogue says something about rollbacks traces it here; the default
    /// ignores it and returns no effects, so the run is the same as if nothing was said.
    /// The device hands the engine copies of the disk.
    func rolledBack(
        _ discarded: DiscardedTransaction, context: inout EngineContext<SyncData>
    ) -> [EngineEffect]
}

extension SyncEngine {
    public func rolledBack(
        _ discarded: DiscardedTransaction, context: inout EngineContext<SyncData>
    ) -> [EngineEffect] {
        []
    }
}

extension SyncEngine {
    /// Hands one event to the engine over a disk whose sync data the caller cannot read.
    ///
    /// The store and sync data are the engine's working copies; the disk changes only by the
    /// `.write` effects returned. `names` is the device's generator, which it keeps.
    public func handle(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        store: Store,
        syncData: SyncDataBox,
        names: inout Xoshiro256StarStar
    ) -> [EngineEffect] {
        withCopiedContext(conditions: conditions, store: store, syncData: syncData, names: &names) {
            handle(event, context: &$0)
        }
    }

    /// Hands a rollback to the engine (`rolledBack(_:context:)`) over copies of the disk,
    /// as `handle(_:conditions:store:syncData:names:)` does for an event.
    public func rolledBack(
        _ discarded: DiscardedTransaction,
        conditions: DeviceConditions,
        store: Store,
        syncData: SyncDataBox,
        names: inout Xoshiro256StarStar
    ) -> [EngineEffect] {
        withCopiedContext(conditions: conditions, store: store, syncData: syncData, names: &names) {
            rolledBack(discarded, context: &$0)
        }
    }

    /// Runs `body` on a context built from copies of the disk; the device's name generator
    /// comes back advanced by what the engine drew.
    private func withCopiedContext(
        conditions: DeviceConditions,
        store: Store,
        syncData: SyncDataBox,
        names: inout Xoshiro256StarStar,
        _ body: (inout EngineContext<SyncData>) -> [EngineEffect]
    ) -> [EngineEffect] {
        var context = EngineContext<SyncData>(
            conditions: conditions, store: store,
            syncData: syncData.contents(as: SyncData.self) ?? SyncData(), names: names)
        let effects = body(&context)
        names = context.names
        return effects
    }
}
