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
/// Only for an engine that `writesWholeStateFirst` (the device checks it and ignores the
/// conformance otherwise): the first effect returned must be the write of its whole state,
/// as `EngineContext.writeAll` makes it. Not a refinement of `SyncEngine`: the engine
/// conforms to both.
public protocol DiskLendingEngine: AnyObject {
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
    /// Handles one event over a lent disk: `body` adds the event's effects to a context
    /// built from the lent store and box, and the effects come back with the write of the
    /// whole working state first (`writeAll`, without the copy).
    ///
    /// The context lives in memory allocated here, and at the end its store and sync data
    /// are moved out into the write and its other fields destroyed one by one: the context
    /// is never destroyed whole. Moving them out of a context Swift manages needed either a
    /// copy of the sync data (every collection retained, then released again with the
    /// context) or an empty sync data swapped in and destroyed (dozens of releases), about
    /// 2,700 instructions an event either way (docs/BENCH.md, issue 19). A stored property
    /// added to `EngineContext` must be deinitialized here too.
    @inlinable
    public static func handlingLentDisk(
        conditions: DeviceConditions,
        store: consuming Store,
        syncData: consuming SyncDataBox,
        names: inout Xoshiro256StarStar,
        _ body: (inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        lendingDisk((), conditions: conditions, store: store, syncData: syncData, names: &names) {
            _, context, effects in body(&context, &effects)
        }
    }

    /// `handlingLentDisk(conditions:store:syncData:names:_:)` for a body that gets the event
    /// as an argument: a closure that captures the event copies it (and its cloud response)
    /// into its context and destroys it after, about 600 instructions an event for sds.
    @inlinable
    public static func handlingLentDisk(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        store: consuming Store,
        syncData: consuming SyncDataBox,
        names: inout Xoshiro256StarStar,
        _ body: (borrowing EngineEvent, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        lendingDisk(event, conditions: conditions, store: store, syncData: syncData, names: &names, body)
    }

    /// Both `handlingLentDisk`s: `argument` is handed to `body`.
    @inlinable
    static func lendingDisk<Argument>(
        _ argument: borrowing Argument,
        conditions: DeviceConditions,
        store: consuming Store,
        syncData: consuming SyncDataBox,
        names: inout Xoshiro256StarStar,
        _ body: (borrowing Argument, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        var box = consume syncData
        var lentStorage: TypedSyncDataStorage<SyncData>?
        let contents = box.lend(as: SyncData.self, storage: &lentStorage) ?? SyncData()
        let context = UnsafeMutablePointer<EngineContext>.allocate(capacity: 1)
        context.initialize(to: EngineContext(
            conditions: conditions, store: consume store, syncData: consume contents, names: names))
        // The write's place comes first from the start, so no effect is moved to put it there.
        var effects: [EngineEffect] = [.probe("")]
        body(argument, &context.pointee, &effects)
        names = context.pointee.names
        // The sync data go back into the storage they were lent from (a new one only when it
        // was shared or held another engine's data).
        let written = DiskWrite(
            store: context.pointer(to: \.store).unsafelyUnwrapped.move(),
            syncData: SyncDataBox(
                returning: context.pointer(to: \.syncData).unsafelyUnwrapped.move(),
                to: lentStorage))
        context.pointer(to: \.now).unsafelyUnwrapped.deinitialize(count: 1)
        context.pointer(to: \.device).unsafelyUnwrapped.deinitialize(count: 1)
        context.pointer(to: \.account).unsafelyUnwrapped.deinitialize(count: 1)
        context.pointer(to: \.accountStatus).unsafelyUnwrapped.deinitialize(count: 1)
        context.pointer(to: \.isOnline).unsafelyUnwrapped.deinitialize(count: 1)
        context.pointer(to: \.isDiskFull).unsafelyUnwrapped.deinitialize(count: 1)
        context.pointer(to: \.names).unsafelyUnwrapped.deinitialize(count: 1)
        context.deallocate()
        effects[0] = .write(consume written)
        return effects
    }
}
