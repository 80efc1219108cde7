import Kernel
import LocalStore

/// The device's fast path for an engine of this package, behind the contract (`package`, so
/// no engine outside it sees it): the device lends the engine its disk for each event, and
/// the engine's own module (where the code below is specialized for its sync data) handles
/// the event over it, resumes probe points in line as the world allows, and leaves on the
/// disk the write of its whole working state that comes first in the effects.
///
/// The engine's `SyncEngine.handle` must do the same over copies: its first effect is the
/// write of its whole state (`EngineContext.writeAll`), so that nothing can look at the disk
/// between lending it and that write, and the run is the same on either path.
package protocol DiskLendingEngine: AnyObject {
    /// Hands one event to the engine over the disk itself: `store` and `syncData` are the
    /// disk's, changed in place, and hold the first effect's write when this returns.
    ///
    /// `passes`: how many probe points the world lets the engine resume in line during the
    /// event (nothing could come between them and their `.resume`); it comes back as how many
    /// were (`EngineContext.resumeInLine`), the first probe effects.
    ///
    /// `spare`: the effects array of an earlier event, kept by the device once its effects
    /// were carried out, holding only the place of the first write (a probe without a name),
    /// or empty when there is none; the engine may take it (leaving an empty one) and fill
    /// it again, which saves an allocation and a free an event.
    ///
    /// `conditions` are the device's, lent like the disk: their names are moved into the
    /// context and back (`handlingLentDisk`), not copied, and hold the same when this returns.
    func handleLent(
        _ event: EngineEvent,
        conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        reusing spare: inout [EngineEffect]
    ) -> [EngineEffect]

    /// `handleLent` on `engine`, an instance of this type that the caller keeps alive
    /// meanwhile (the device holds it as its running engine). Called through the type, the
    /// engine is not retained and released for every event.
    static func handleLent(
        unretained engine: Unmanaged<AnyObject>,
        _ event: EngineEvent,
        conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        reusing spare: inout [EngineEffect]
    ) -> [EngineEffect]
}

extension EngineContext {
    /// Handles one event over the disk itself, for `DiskLendingEngine.handleLent`: `body`
    /// adds the event's effects (and those of the `.resume`s made in line) to a context built
    /// from the lent store and box, and `store` and `syncData` hold the whole working state
    /// when it returns, as the effects' first write does. The event is handed to the body as
    /// an argument: a closure that captures it copies it (and its cloud response).
    @inlinable
    package static func handlingLentDisk(
        _ event: EngineEvent,
        conditions: DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        _ body: (borrowing EngineEvent, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        var lent = conditions
        return handlingLentDisk(
            event, lending: &lent, disk: &store, syncData: &syncData, names: &names,
            resumingInLine: &passes, effects: [.probe("")], body)
    }

    /// `handlingLentDisk(_:conditions:disk:syncData:names:resumingInLine:_:)` over the
    /// device's own conditions, whose names are moved into the context and back (they hold
    /// the same when it returns), starting from `effects`: the place of the first write, in
    /// an array the engine may have kept from an earlier event (no allocation).
    @inlinable
    package static func handlingLentDisk(
        _ event: EngineEvent,
        lending conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        effects: consuming [EngineEffect],
        _ body: (borrowing EngineEvent, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        lendingDisk(
            event, conditions: &conditions, disk: &store, syncData: &syncData, names: &names,
            effects: consume effects
        ) { event, context, effects in
            body(event, &context, &effects)
            // Position 0 holds the place of the write.
            resumeInLine(&passes, context: &context, effects: &effects, from: 1, body)
        }
    }

    /// The core of `handlingLentDisk`: `argument` is handed to `body`.
    ///
    /// The context lives in memory reserved here, on the stack (not on the heap: no malloc and
    /// free an event): the store is moved into it
    /// from the disk (whose memory stays uninitialized until the end) and the sync data are
    /// lent from their box. At the end the store goes back to the disk and into the write
    /// (one copy: the effect and the disk each hold one), the sync data back into the box
    /// they came in (`SyncDataBox.init(returning:to:)`), and the context's other fields are
    /// moved out one by one: the context is never destroyed whole. Moving them out of a
    /// context Swift manages needed either a copy or stand-ins swapped in and destroyed
    /// (docs/BENCH.md). A stored property added to `EngineContext` must be moved
    /// out here too.
    /// (`argument` is not marked `borrowing`, which a closure cannot capture; it is passed
    /// as borrowed all the same.)
    @inlinable
    static func lendingDisk<Argument>(
        _ argument: Argument,
        conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        effects: consuming [EngineEffect],
        _ body: (borrowing Argument, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        // Consumed, so the engine's appends find the array uniquely held.
        var effects = consume effects
        return withUnsafeTemporaryAllocation(of: EngineContext.self, capacity: 1) { buffer in
            lendingDisk(
                argument, conditions: &conditions, disk: &store, syncData: &syncData,
                names: &names, effects: &effects,
                context: buffer.baseAddress.unsafelyUnwrapped, body)
        }
    }

    /// `lendingDisk(_:conditions:disk:syncData:names:_:)` with the (uninitialized) memory
    /// the context lives in, left uninitialized again at the end.
    ///
    /// The names in `conditions` are moved into the context and back at the end (their
    /// memory is uninitialized meanwhile): copied, each cost a retain and a release an event.
    @inlinable
    static func lendingDisk<Argument>(
        _ argument: borrowing Argument,
        conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        effects: inout [EngineEffect],
        context: UnsafeMutablePointer<EngineContext>,
        _ body: (borrowing Argument, inout EngineContext, inout [EngineEffect]) -> Void
    ) -> [EngineEffect] {
        var lentStorage: TypedSyncDataStorage<SyncData>?
        let contents = syncData.lend(as: SyncData.self, storage: &lentStorage) ?? SyncData()
        let device = withUnsafeMutablePointer(to: &conditions.device) { $0.move() }
        let account = withUnsafeMutablePointer(to: &conditions.account) { $0.move() }
        context.initialize(to: EngineContext(
            now: conditions.now, device: device, account: account,
            accountStatus: conditions.accountStatus, isOnline: conditions.isOnline,
            isDiskFull: conditions.isDiskFull,
            store: withUnsafeMutablePointer(to: &store) { $0.move() },
            syncData: consume contents, names: names, isTracing: conditions.isTracing))
        // The write's place comes first in `effects`, so no effect is moved to put it there.
        body(argument, &context.pointee, &effects)
        names = context.pointee.names
        // The sync data go back into the storage they were lent from (a new one only when it
        // was shared or held another engine's data).
        syncData = SyncDataBox(
            returning: context.pointer(to: \.syncData).unsafelyUnwrapped.move(),
            to: consume lentStorage)
        let written = context.pointer(to: \.store).unsafelyUnwrapped.move()
        withUnsafeMutablePointer(to: &store) { $0.initialize(to: written) }
        // Moved out and dropped as values: `deinitialize` destroyed the optional account
        // through the generic witnesses of `Optional`.
        _ = context.pointer(to: \.now).unsafelyUnwrapped.move()
        withUnsafeMutablePointer(to: &conditions.device) {
            $0.initialize(to: context.pointer(to: \.device).unsafelyUnwrapped.move())
        }
        withUnsafeMutablePointer(to: &conditions.account) {
            $0.initialize(to: context.pointer(to: \.account).unsafelyUnwrapped.move())
        }
        _ = context.pointer(to: \.accountStatus).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.isOnline).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.isDiskFull).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.names).unsafelyUnwrapped.move()
        _ = context.pointer(to: \.isTracing).unsafelyUnwrapped.move()
        effects[0] = .write(DiskWrite(store: consume written, syncData: syncData))
        var handled: [EngineEffect] = []
        swap(&handled, &effects)
        return handled
    }
}
