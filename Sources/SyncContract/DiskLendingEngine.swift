import Kernel
import LocalStore

/// An engine that handles an event over a lent disk in its own code: what
/// `SyncEngine.handle(_:conditions:lending:syncData:names:)` does, written (or specialized)
/// for the engine's sync data.
///
/// That extension method is generic and reached through `any SyncEngine`, so it runs
/// unspecialized: opening the box, building the context, copying the sync data into the write
/// effect and destroying the context went through type metadata and value witnesses on every
/// event (about a fifth of the sds engine's cost per event; docs/BENCH.md, issue 19). A device
/// whose engine conforms calls `handleLent` instead; the `EngineContext` helpers below are
/// inlinable, so the engine's module gets them specialized.
///
/// Only for an engine that `writesWholeStateFirst`: the first effect returned must be the
/// write of its whole state, as `EngineContext.writeAll` makes it.
public protocol DiskLendingEngine: SyncEngine {
    /// Hands one event to the engine over a disk lent to it: the store and sync data are
    /// moved in and changed in place; the first effect writes them back.
    func handleLent(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        store: consuming Store,
        syncData: consuming SyncDataBox,
        names: inout Xoshiro256StarStar
    ) -> [EngineEffect]
}

extension EngineContext {
    /// A context over a lent disk: the store and the box's sync data moved in (an empty box,
    /// or another engine's, opens as the empty sync data).
    @inlinable
    public init(
        conditions: DeviceConditions,
        lentStore store: consuming Store,
        syncData box: consuming SyncDataBox,
        names: Xoshiro256StarStar
    ) {
        var box = consume box
        let contents = box.takeContents(as: SyncData.self) ?? SyncData()
        self.init(
            now: conditions.now,
            device: conditions.device,
            account: conditions.account,
            accountStatus: conditions.accountStatus,
            isOnline: conditions.isOnline,
            isDiskFull: conditions.isDiskFull,
            store: consume store,
            syncData: consume contents,
            names: names
        )
    }

    /// `writeAll` of a context that is not needed afterwards (`consuming`, so the optimizer
    /// may move its store and sync data into the write instead of copying them and then
    /// destroying the context's).
    @inlinable
    public consuming func takeWholeStateWrite() -> EngineEffect {
        .write(DiskWrite(store: store, syncData: SyncDataBox(syncData)))
    }
}
