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

    /// The same over the disk itself (an addition): `store` and `syncData` are the disk's,
    /// changed in place, and hold the first effect's write when this returns, so the device
    /// need not take the write apart to put it back on the disk (matching and copying the
    /// effect cost about 800 instructions an event; issue 19). The default moves them into
    /// `handleLent(_:conditions:store:syncData:names:)` and copies the first write back.
    ///
    /// `passes`: how many probe points the world lets the engine resume in line during the
    /// event (nothing could come between them and their `.resume`); it comes back as how many
    /// were (`EngineContext.resumeInLine`), the first probe effects. The default resumes none.
    func handleLent(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int
    ) -> [EngineEffect]

    /// Takes back the effects array of an event once the device has carried its effects out
    /// (an addition, issue 19): an engine may empty it and fill it again on a later event,
    /// which saves an allocation and a free an event (about 400 instructions). Called only
    /// with an array nothing else holds; its remaining elements are the engine's to destroy.
    /// The default drops it.
    func reuseEffects(_ effects: consuming [EngineEffect])
}

extension DiskLendingEngine {
    public func reuseEffects(_ effects: consuming [EngineEffect]) {}

    public func handleLent(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int
    ) -> [EngineEffect] {
        passes = 0
        // Moved out of the disk's memory, which stays uninitialized until the first write
        // fills it again (the caller cannot look at the disk meanwhile).
        return withUnsafeMutablePointer(to: &store) { storeSlot in
            withUnsafeMutablePointer(to: &syncData) { syncDataSlot in
                let effects = handleLent(
                    event, conditions: conditions, store: storeSlot.move(),
                    syncData: syncDataSlot.move(), names: &names)
                // Matched with `case .some`: optional bindings copied the optional store besides
                // (through the generic witnesses of `Optional<Store>`).
                guard !effects.isEmpty, case .write(let write) = effects[0],
                      case .some(let written) = write.store,
                      case .some(let writtenSyncData) = write.syncData else {
                    preconditionFailure("engine \(type(of: self)) did not write its whole state first")
                }
                storeSlot.initialize(to: written)
                syncDataSlot.initialize(to: writtenSyncData)
                return effects
            }
        }
    }
}

extension EngineContext {
    /// Handles one event over a lent disk: `body` adds the event's effects to a context
    /// built from the lent store and box, and the effects come back with the write of the
    /// whole working state first (`writeAll`, without the copy).
    @inlinable
    public static func handlingLentDisk(
        conditions: DeviceConditions,
        store: consuming Store,
        syncData: consuming SyncDataBox,
        names: inout Xoshiro256StarStar,
        _ body: (inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        var disk = (store: consume store, syncData: consume syncData)
        return lendingDisk(
            (), conditions: conditions, disk: &disk.store, syncData: &disk.syncData, names: &names
        ) { _, context, effects in body(&context, &effects) }
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
        var disk = (store: consume store, syncData: consume syncData)
        return lendingDisk(
            event, conditions: conditions, disk: &disk.store, syncData: &disk.syncData,
            names: &names, body)
    }

    /// `handlingLentDisk(_:conditions:store:syncData:names:_:)` over the disk itself (for
    /// `DiskLendingEngine.handleLent(_:conditions:disk:syncData:names:resumingInLine:)`):
    /// `store` and `syncData` hold the whole working state when it returns, as its first
    /// effect writes. The probe points are resumed in line as `resumeInLine` says.
    @inlinable
    public static func handlingLentDisk(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        _ body: (borrowing EngineEvent, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        lendingDisk(
            event, conditions: conditions, disk: &store, syncData: &syncData, names: &names
        ) { event, context, effects in
            body(event, &context, &effects)
            // Position 0 holds the place of the write.
            resumeInLine(&passes, context: &context, effects: &effects, from: 1, body)
        }
    }

    /// The `handlingLentDisk`s: `argument` is handed to `body`.
    ///
    /// The context lives in memory reserved here, on the stack (allocated on the heap, it
    /// cost a malloc and a free an event, about 200 instructions): the store is moved into it
    /// from the disk (whose memory stays uninitialized until the end) and the sync data are
    /// lent from their box. At the end the store goes back to the disk and into the write
    /// (one copy: the effect and the disk each hold one), the sync data back into the box
    /// they came in (`SyncDataBox.init(returning:to:)`), and the context's other fields are
    /// moved out one by one: the context is never destroyed whole. Moving them out of a
    /// context Swift manages needed either a copy or stand-ins swapped in and destroyed
    /// (docs/BENCH.md, issue 19). A stored property added to `EngineContext` must be moved
    /// out here too.
    /// (`argument` is not marked `borrowing`, which a closure cannot capture; it is passed
    /// as borrowed all the same.)
    @inlinable
    static func lendingDisk<Argument>(
        _ argument: Argument,
        conditions: DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        _ body: (borrowing Argument, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        withUnsafeTemporaryAllocation(of: EngineContext.self, capacity: 1) { buffer in
            lendingDisk(
                argument, conditions: conditions, disk: &store, syncData: &syncData,
                names: &names, context: buffer.baseAddress.unsafelyUnwrapped, body)
        }
    }

    /// `lendingDisk(_:conditions:disk:syncData:names:_:)` with the (uninitialized) memory
    /// the context lives in, left uninitialized again at the end.
    @inlinable
    static func lendingDisk<Argument>(
        _ argument: borrowing Argument,
        conditions: DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        context: UnsafeMutablePointer<EngineContext>,
        _ body: (borrowing Argument, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        var lentStorage: TypedSyncDataStorage<SyncData>?
        let contents = syncData.lend(as: SyncData.self, storage: &lentStorage) ?? SyncData()
        context.initialize(to: EngineContext(
            conditions: conditions,
            store: withUnsafeMutablePointer(to: &store) { $0.move() },
            syncData: consume contents, names: names))
        // The write's place comes first from the start, so no effect is moved to put it there.
        var effects: [EngineEffect] = [.probe("")]
        body(argument, &context.pointee, &effects)
        names = context.pointee.names
        // The sync data go back into the storage they were lent from (a new one only when it
        // was shared or held another engine's data).
        syncData = SyncDataBox(
            returning: context.pointer(to: \.syncData).unsafelyUnwrapped.move(), to: lentStorage)
        let written = context.pointer(to: \.store).unsafelyUnwrapped.move()
        withUnsafeMutablePointer(to: &store) { $0.initialize(to: written) }
        // Moved out and dropped as values: `deinitialize` destroyed the optional account
        // through the generic witnesses of `Optional` (about 100 instructions an event).
        _ = context.pointer(to: \.now).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.device).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.account).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.accountStatus).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.isOnline).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.isDiskFull).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.names).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.isTracing).unsafelyUnwrapped.move()
        effects[0] = .write(DiskWrite(store: consume written, syncData: syncData))
        return effects
    }
}
