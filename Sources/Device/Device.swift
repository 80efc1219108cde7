import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One app process on one virtual device: its disk, its running engine, its network and
/// its iCloud account.
///
/// A kill throws the engine (its memory) away and starts a new incarnation; everything the
/// world scheduled for an older incarnation is dropped when it comes due.
///
/// `@exclusivity(unchecked)` marks properties that are only read, assigned, or
/// changed in place by code that cannot reach the device (the store, the disk, stdlib
/// collections; engines know no `Device`): their accesses never overlap, so the runtime
/// check, paid on every event, could never fire. That holds for `names` too, lent to the
/// engine for a whole event like the disk: the engine gets the stream, never the device.
public final class Device {
    public let name: String
    public let schema: Schema
    /// The store and sync data; an extension uses its app's (EXT-1: the app group).
    ///
    /// Written without recursion on purpose: an earlier version had `_read`/`_modify` call
    /// themselves on the host device (a self-recursive yield-once coroutine), which Swift
    /// 6.3.1 miscompiles under `-O` (the host branch yielded garbage and every scenario with
    /// an extension crashed in the release build). Now a plain getter finds the owning device
    /// and the accessors yield that device's stored property directly.
    ///
    /// And without `_read`/`_modify` coroutines at all: once the disk outgrew a coroutine's
    /// inline frame (the store gained its persistent history), Swift 6.3.1 freed the `_read`
    /// frame before the caller finished with the value it yielded (`disk.store` passed as an
    /// argument read freed memory; valgrind showed it). A plain getter returns an owned copy
    /// (references, no deep copy); this file changes the disk in place through `ownDisk`.
    public internal(set) var disk: DeviceDisk {
        get { diskOwner.ownDisk }
        set {
            diskOwner.diskChanged()
            diskOwner.ownDisk = newValue
        }
    }
    @exclusivity(unchecked) private var ownDisk: DeviceDisk
    /// The disk's store alone (`disk.store` without copying, and retaining, the sync data's
    /// reference too): what the harness reads most. A plain getter, as `disk` is.
    /// (An app reads its own disk without going through `diskOwner`, which retained and
    /// released the device for every read: the ledger and the draws read a store thousands
    /// of times a sweep.)
    public var store: Store { host == nil ? ownDisk.store : diskOwner.ownDisk.store }
    /// The disk holds the first write of the event `deliverWritingFirst` just handled, and
    /// nothing changed it since: carrying that write out again (`apply(_:)`, as the world
    /// does with every write) would change nothing, so it is skipped instead of copying the
    /// store into the disk again.
    @exclusivity(unchecked) private var holdsLentWrite = false
    /// `observation` as last built from this app's sync data and engine, until either changes
    /// (building it is costly, and checkers and the explorer read it far more often than it
    /// changes). Only an app keeps one: an extension reads its app's disk, and changes to it drop
    /// the app's. Dropped before an engine is lent the disk, so the engine's changes find the sync
    /// data's collections uniquely held, and whenever the engine is handed an event otherwise:
    /// an observation may read the engine's memory when it is made (sds's does).
    ///
    /// Not optional: an empty cache holds `NoObservation` (never asked), so returning the
    /// cached one copies the existential alone, not an optional of it through the runtime's
    /// generic witnesses on every read, and dropping it destroys one.
    @exclusivity(unchecked) private var cachedObservation: any EngineObservation = NoObservation()
    /// True whenever `cachedObservation` holds an engine's observation, not `NoObservation`.
    @exclusivity(unchecked) private var mayHoldObservation = false
    /// The device whose disk this process uses: itself for an app, the app for an extension.
    private var diskOwner: Device {
        var owner = self
        while let host = owner.host { owner = host }
        return owner
    }
    /// The app an extension belongs to; nil for an app.
    public let host: Device?
    /// What this process synchronizes (`syncs`, `upgrade`); nil: what the schema says.
    public var syncSelection: SyncView?
    /// What the app synchronizes (its changes are recorded this way): an extension follows its
    /// app's version.
    public var recordingView: SyncView? { host?.syncSelection ?? syncSelection }
    /// The engine running in this process (its memory); nil while the app is not running.
    @exclusivity(unchecked) public private(set) var engine: (any SyncEngine)?
    /// The running engine again, when it handles a lent disk in its own code
    /// (`DiskLendingEngine`, behind the contract; given by the profile once per launch).
    /// Its type and the object, not retained (`engine` holds it, and both are set and
    /// cleared together): an event's call through the type retains and releases nothing.
    @exclusivity(unchecked) private var lendingEngine: LendingEngine?
    /// The effects array of an earlier event, emptied but for the write's place
    /// (`reuseEffects`), for the lending engine to fill again (empty when there is none).
    ///
    /// Held at an address of its own, so that an empty array left by the engine can be
    /// written over: the shared empty array is never freed, and releasing it cost a call.
    private let spareEffects: UnsafeMutablePointer<[EngineEffect]> = {
        let place = UnsafeMutablePointer<[EngineEffect]>.allocate(capacity: 1)
        place.initialize(to: [])
        return place
    }()
    /// Where `reuseEffects` moves the world's placeholders: written over, never destroyed (a
    /// placeholder holds no reference), until the device goes.
    private let spentPlaceholder: UnsafeMutablePointer<EngineEffect> = {
        let place = UnsafeMutablePointer<EngineEffect>.allocate(capacity: 1)
        place.initialize(to: .probe(""))
        return place
    }()
    /// The largest array kept for reuse: a big download page's effects are not held on to.
    private static let largestSpareEffects = 64
    /// The engine this device runs, as the registry describes it.
    public let profile: EngineProfile
    /// Why the store did not load at the last launch, for an engine that validates the schema
    /// when the store loads (`EngineProfile.validateSchema`); nil when it loaded.
    public private(set) var storeLoadFailure: StoreLoadFailure?
    /// Counts launches; events carry the incarnation they were scheduled for.
    @exclusivity(unchecked) public private(set) var incarnation = 0
    /// An extension is signed into its app's account.
    public var account: String? {
        get { host?.account ?? ownAccount }
        set { ownAccount = newValue }
    }
    public var accountStatus: AccountStatus {
        get { host?.accountStatus ?? ownAccountStatus }
        set { ownAccountStatus = newValue }
    }
    @exclusivity(unchecked) private var ownAccount: String? {
        didSet { accountChanges &+= 1 }
    }
    /// How often `ownAccount` changed: `eventConditions` reads the account again only when
    /// this (summed up the chain of hosts, whose accounts an extension reports) moved.
    @exclusivity(unchecked) private var accountChanges = 0
    /// The conditions handed to a lending engine with each event, kept between events and
    /// brought up to date in place (`refreshEventConditions`): built anew for every event,
    /// they would be copied and destroyed twice more through the type's value witnesses, and
    /// the account read and retained.
    @exclusivity(unchecked) private var eventConditions: DeviceConditions
    /// `accountVersion` when `eventConditions` last read the account; -1: never.
    @exclusivity(unchecked) private var eventConditionsVersion = -1
    @exclusivity(unchecked) private var ownAccountStatus: AccountStatus
    @exclusivity(unchecked) public var isOnline = true
    /// LIFE-6: the disk has no room left.
    @exclusivity(unchecked) public var isDiskFull = false
    /// Whether the run's trace is kept (`DeviceConditions.isTracing`): the world sets it
    /// false for a run that keeps no trace, so an engine may skip its trace effects' details.
    @exclusivity(unchecked) public var isTracing = true {
        didSet { eventConditions.isTracing = isTracing }
    }
    /// ADOPT-1: whether the synchronizer observes the store; saves made while it does not
    /// carry the author `Device.unobservedAuthor` and are never recorded as changes.
    @exclusivity(unchecked) public var isObserved = true
    /// This device's one-way request latency, if it has its own.
    @exclusivity(unchecked) public var latency: Latency?
    public var autosync = true {
        didSet { engine?.setAutosync(autosync) }
    }
    /// The open transaction of `begin` … `save`, if any.
    @exclusivity(unchecked) public private(set) var openTransaction: Transaction?
    /// Unchecked (see the type's comment): its check would be paid on every event, on the way
    /// to the engine.
    @exclusivity(unchecked) private var names: Xoshiro256StarStar
    let pageSize: Int
    let mechanisms: [String: Bool]

    public init(
        name: String,
        schema: Schema,
        account: String?,
        names: Xoshiro256StarStar,
        profile: EngineProfile,
        pageSize: Int = 100,
        mechanisms: [String: Bool] = [:],
        host: Device? = nil
    ) {
        self.name = name
        self.schema = schema
        self.host = host
        self.ownAccount = account
        self.ownAccountStatus = account == nil ? .noAccount : .available
        // Only the name is kept as it is; the rest is read before the first event.
        self.eventConditions = DeviceConditions(
            now: .zero, device: name, account: nil, accountStatus: .couldNotDetermine,
            isOnline: false, isDiskFull: false)
        self.ownDisk = DeviceDisk(store: Store(schema: host == nil ? schema : Schema(entities: [])))
        self.names = names
        self.profile = profile
        // The ledger tells the app's saves by their author: an engine must save as another.
        precondition(![Self.appAuthor, Self.unobservedAuthor].contains(profile.author),
                     "engine '\(profile.name)' saves as the app's author '\(profile.author)'")
        self.pageSize = pageSize
        self.mechanisms = mechanisms
    }

    deinit {
        spentPlaceholder.deinitialize(count: 1)
        spentPlaceholder.deallocate()
        spareEffects.deinitialize(count: 1)
        spareEffects.deallocate()
    }

    public var isRunning: Bool { engine != nil }

    /// The client identity requests from this device carry.
    public var client: CloudClient {
        CloudClient(device: name, account: account, accountStatus: accountStatus)
    }

    /// Starts the app: a new engine over the same disk.
    public func launch() {
        precondition(engine == nil, "device '\(name)' is already running")
        incarnation += 1
        let launchedSchema = self.launchedSchema
        storeLoadFailure = profile.validateSchema?(launchedSchema)
        let engine = profile.engine(EngineSetup(
            schema: launchedSchema,
            recordingSchema: recordingView.map { $0.applied(to: schema) } ?? schema,
            fullSchema: schema,
            isExtension: host != nil,
            pageSize: pageSize,
            mechanisms: mechanisms
        ))
        engine.setAutosync(autosync)
        dropObservation()
        self.engine = engine
        lendingEngine = profile.lendingEngine?(engine).map(LendingEngine.init)
    }

    /// The schema the engine launches with: the app's, seen through its sync selection.
    var launchedSchema: Schema { syncSelection.map { $0.applied(to: schema) } ?? schema }

    /// Force-quits the app: the engine's memory and any open transaction are gone.
    public func kill() {
        dropObservation()
        lendingEngine = nil
        engine = nil
        openTransaction = nil
        incarnation += 1
    }

    /// Hands one event to the running engine and returns its effects.
    ///
    /// The engine works on copies of the disk; the disk changes only when the caller
    /// carries out the `.write` effects (`apply(_:)`), in order.
    public func deliver(_ event: EngineEvent, now: SimTime) -> [EngineEffect] {
        guard let engine else { return [] }
        dropObservation()
        return engine.handle(
            event, conditions: conditions(now: now), store: diskOwner.ownDisk.store,
            syncData: diskOwner.ownDisk.syncData,
            names: &names)
    }

    private func conditions(now: SimTime) -> DeviceConditions {
        DeviceConditions(
            now: now, device: name, account: account, accountStatus: accountStatus,
            isOnline: isOnline, isDiskFull: isDiskFull, isTracing: isTracing)
    }

    /// The sum of `accountChanges` of this device and its hosts: it moves whenever `account`
    /// may answer differently (each count only grows).
    private var accountVersion: Int {
        var version = accountChanges
        var next = host
        while let device = next {
            version &+= device.accountChanges
            next = device.host
        }
        return version
    }

    /// Makes `eventConditions` what `conditions(now:)` would build now: the account is read
    /// (and retained) only after it changed, the rest are plain values stored in place.
    @inline(__always)
    private func refreshEventConditions(now: SimTime) {
        let version = accountVersion
        if version != eventConditionsVersion {
            eventConditions.account = account
            eventConditionsVersion = version
        }
        eventConditions.now = now
        eventConditions.accountStatus = accountStatus
        eventConditions.isOnline = isOnline
        eventConditions.isDiskFull = isDiskFull
    }

    /// Whether the first effect is a write, matched where it lies: `case .write = effects[0]`
    /// copied the whole effect out of the array (twice) and retained its store and sync data.
    private static func startsWithWrite(_ effects: [EngineEffect]) -> Bool {
        effects.withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return false }
            if case .write = first.pointee { return true }
            return false
        }
    }

    /// Like `deliver(_:now:)`, for a caller that carries out the first effect at once: a
    /// `DiskLendingEngine` gets the disk lent (moved in, changed in place, not copied), and
    /// the disk already holds its first effect's write when this returns, so carrying it out
    /// again changes nothing. Other engines work on copies, as in `deliver`.
    public func deliverWritingFirst(_ event: EngineEvent, now: SimTime) -> [EngineEffect] {
        var none = 0
        return deliverWritingFirst(event, now: now, resumingInLine: &none)
    }

    /// `deliverWritingFirst(_:now:)`, letting a lending engine resume up to `passes` probe
    /// points in line (the caller vouches that nothing could come between them and their
    /// `.resume`); `passes` comes back as how many it did: the effects' first probe points.
    public func deliverWritingFirst(
        _ event: EngineEvent, now: SimTime, resumingInLine passes: inout Int
    ) -> [EngineEffect] {
        // An app owns its disk: passed as itself, not found (and retained) as the owner.
        host == nil
            ? deliverWritingFirst(event, now: now, owner: self, passes: &passes)
            : deliverWritingFirst(event, now: now, owner: diskOwner, passes: &passes)
    }

    /// Whether the running engine handles the events over a lent disk, in its own code.
    public var lendsDisk: Bool { lendingEngine != nil }

    /// Takes an event's effects array back once the world has carried the effects out,
    /// emptied, for the lending engine to fill again (`DiskLendingEngine.handleLent`). Kept
    /// here, not handed to the engine at once: that call retained and released the engine.
    public func reuseEffects(_ effects: consuming [EngineEffect]) {
        // Changed as the parameter itself: a copy in a local kept a second reference, so
        // emptying it allocated a new array.
        guard effects.capacity <= Self.largestSpareEffects, !effects.isEmpty else { return }
        // Emptied from the end: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`, costly for an event's few effects. The places the world emptied
        // hold its placeholder, a probe without a name, which holds no reference: one equal
        // bit for bit to the placeholder in `spentPlaceholder` is moved there (written over,
        // nothing released), not destroyed through the enum's outlined destroy, which finds
        // nothing to release at a cost.
        while effects.count > 1 {
            if Self.endsWith(spentPlaceholder, effects) {
                spentPlaceholder.initialize(to: effects.removeLast())
            } else {
                effects.removeLast()
            }
        }
        // The write's place stays, for the next event's write: the engine need not add it.
        effects[0] = .probe("")
        if spareEffects.pointee.capacity == 0 {
            // The engine took the last spare array and left an empty one, which has no
            // storage of its own (the shared empty array's): written over, not released.
            spareEffects.initialize(to: consume effects)
        } else {
            spareEffects.pointee = consume effects
        }
    }

    /// Whether the last effect is the one at `placeholder`, bit for bit.
    @inline(__always)
    private static func endsWith(
        _ placeholder: UnsafeMutablePointer<EngineEffect>, _ effects: borrowing [EngineEffect]
    ) -> Bool {
        effects.withUnsafeBytes { bytes in
            sameBytes(
                bytes.baseAddress.unsafelyUnwrapped + bytes.count
                    - MemoryLayout<EngineEffect>.stride,
                UnsafeRawPointer(placeholder), count: MemoryLayout<EngineEffect>.size)
        }
    }

    /// Whether `count` bytes at two addresses are the same, compared a word at a time.
    @inline(__always)
    private static func sameBytes(
        _ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int
    ) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard first.load(fromByteOffset: offset, as: UInt8.self)
                == second.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }

    /// `deliverWritingFirst(_:now:)` with the device whose disk this process uses.
    private func deliverWritingFirst(
        _ event: EngineEvent, now: SimTime, owner: Device, passes: inout Int
    ) -> [EngineEffect] {
        // Lent, not copied: the engine's first effect writes its whole state, so the disk's
        // old contents are never looked at again (and the engine changes them in place).
        let effects: [EngineEffect]
        // Asked first: a lending engine is the running engine (`launch`), so the running
        // engine need not be read on the way.
        if let lendingEngine {
            owner.diskChanged()
            refreshEventConditions(now: now)
            // The engine's own code works on the disk itself and leaves its first write there.
            effects = withUnsafeMutablePointer(to: &owner.ownDisk) { disk in
                withUnsafeMutablePointer(to: &eventConditions) { slot in
                    // Lent in place, like the disk (nothing can read them meanwhile: an
                    // engine knows no device): the engine moves their names into its
                    // context and back instead of copying them.
                    lendingEngine.type.handleLent(
                        unretained: lendingEngine.object,
                        event, conditions: &slot.pointee, disk: &disk.pointee.store,
                        syncData: &disk.pointee.syncData, names: &names,
                        resumingInLine: &passes, reusing: &spareEffects.pointee)
                }
            }
            guard Self.startsWithWrite(effects) else { notWrittenFirst() }
        } else {
            passes = 0
            guard let engine else { return [] }
            owner.diskChanged()
            return engine.handle(
                event, conditions: conditions(now: now), store: diskOwner.ownDisk.store,
                syncData: diskOwner.ownDisk.syncData, names: &names)
        }
        owner.holdsLentWrite = true
        return effects
    }

    /// The lent path's check failed: the engine did not write its whole state first.
    private func notWrittenFirst() -> Never {
        preconditionFailure("engine '\(profile.name)' did not write its whole state first")
    }

    /// Something changes the disk: the observation built from it and the lent write it held
    /// are stale.
    private func diskChanged() {
        dropObservation()
        holdsLentWrite = false
    }

    /// The app changed the disk's store itself: the lent write it held is stale, and so is an
    /// observation built while the app was not running (it holds the store,
    /// `EngineProfile.observe(_:stoppedWith:)`); a running engine's reads its own memory.
    private func appChangedStore() {
        holdsLentWrite = false
        if engine == nil { dropObservation() }
    }

    /// Forgets the cached observation. Checked first: the cache is empty between most events,
    /// and replacing it destroys the old existential through the runtime's generic witness.
    @inline(__always)
    private func dropObservation() {
        if mayHoldObservation {
            cachedObservation = NoObservation()
            mayHoldObservation = false
        }
    }

    /// Carries out one write effect of the engine on the disk (the app group's, for an
    /// extension).
    public func apply(_ write: DiskWrite) {
        let owner = diskOwner
        if owner.holdsLentWrite {
            owner.holdsLentWrite = false
            // The lent event's first write, carried out again: the disk holds it already
            // (the very box of sync data, which no other write shares, and its store).
            // (Matched, not compared with nil: that copied the optional store.)
            if case .some = write.store, case .some(let syncData) = write.syncData,
               syncData.isIdentical(to: owner.ownDisk.syncData) { return }
        }
        if write.syncData != nil { owner.dropObservation() }
        owner.ownDisk.apply(write)
    }

    /// What checkers may read of the engine: its disk, and its memory while it runs.
    ///
    /// Built once per change of the disk's sync data or of the running engine (an app keeps
    /// it, `cachedObservation`): every event handed to the engine drops it.
    public var observation: any EngineObservation {
        if host == nil, mayHoldObservation { return cachedObservation }
        let built = engine == nil
            ? profile.observe(diskOwner.ownDisk.syncData, stoppedWith: diskOwner.ownDisk.store,
                schema: launchedSchema)
            : profile.observe(diskOwner.ownDisk.syncData, running: engine)
        if host == nil {
            // The empty cache holds `NoObservation`, which owns nothing: the copy is made in
            // its place, not assigned through the runtime's generic existential assignment.
            withUnsafeMutablePointer(to: &cachedObservation) { $0.initialize(to: built) }
            mayHoldObservation = true
        }
        return built
    }
}

// MARK: The app's own store operations

extension Device {
    /// The store author of the app's own saves.
    public static let appAuthor = "app"
    /// The author of saves made while nothing observed the store (ADOPT-1).
    public static let unobservedAuthor = "unobserved"

    /// Reserves the identifier of a model the app is about to insert.
    public func makeModelID() -> ModelID {
        let owner = diskOwner
        owner.holdsLentWrite = false
        // Changed in place: the disk holds the only reference (as in `save(_:)`).
        return owner.ownDisk.store.makeModelID()
    }

    /// Runs an operation: inside `begin` … `save` it joins the open transaction, otherwise it
    /// is saved at once. Returns whether something was saved (the engine must be told).
    public func perform(_ operation: Transaction.Operation) throws(StoreError) -> Bool {
        if openTransaction != nil {
            openTransaction?.append(operation)
            return false
        }
        // Saved as it is: a transaction of one operation is a list allocated for each save.
        let owner = diskOwner
        owner.appChangedStore()
        return try owner.ownDisk.store.save(operation, author: author) != nil
    }

    /// The store author of the app's saves now.
    private var author: String { isObserved ? Self.appAuthor : Self.unobservedAuthor }

    public var hasOpenTransaction: Bool { openTransaction != nil }

    /// The entity of a model the open transaction inserts (not saved yet), if any.
    public func unsavedEntity(of id: ModelID) -> String? {
        openTransaction?.insertedEntity(of: id)
    }

    /// `begin`: later operations wait in one transaction.
    public func begin() {
        openTransaction = Transaction()
    }

    /// `save`: saves the open transaction. Returns whether something was saved.
    public func commit() throws(StoreError) -> Bool {
        guard let transaction = openTransaction else { return false }
        openTransaction = nil
        return try save(transaction)
    }

    /// `rollback`: the open transaction is discarded; nothing of it reaches the store (DEL-1).
    /// Returns what it would have changed (nil when none was open), for `deliverRollback`.
    @discardableResult
    public func rollback() -> DiscardedTransaction? {
        guard let transaction = openTransaction else { return nil }
        openTransaction = nil
        return DiscardedTransaction(transaction, in: diskOwner.ownDisk.store)
    }

    /// Tells the running engine what a rollback discarded and returns its effects (none from
    /// an engine that ignores rollbacks). The engine works on copies of the disk, as in
    /// `deliver(_:now:)`.
    public func deliverRollback(_ discarded: DiscardedTransaction, now: SimTime) -> [EngineEffect] {
        guard let engine else { return [] }
        dropObservation()
        return engine.rolledBack(
            discarded, conditions: conditions(now: now), store: diskOwner.ownDisk.store,
            syncData: diskOwner.ownDisk.syncData, names: &names)
    }

    private func save(_ transaction: Transaction) throws(StoreError) -> Bool {
        let owner = diskOwner
        owner.appChangedStore()
        // Saved in place, on the disk's own store: taking it out, with a new empty store of
        // the schema swapped in, would allocate that store's storage and free it on each save.
        return try owner.ownDisk.store.save(transaction, author: author) != nil
    }

    /// `batch-delete`: deletes in the store directly, bypassing history (DEL-2).
    public func batchDelete(entity: String, where filter: [String: AttributeValue]) -> [ModelID] {
        let owner = diskOwner
        owner.appChangedStore()
        return owner.ownDisk.store.batchDelete(entity: entity, where: filter)
    }

    /// `lose-store`: the store's file vanishes.
    public func loseStore() {
        diskOwner.appChangedStore()
        diskOwner.ownDisk.store.lose()
    }

    /// `rebuild-store`: the same data with new identifiers.
    public func rebuildStore() -> [(old: ModelID, new: ModelID)] {
        diskOwner.appChangedStore()
        return diskOwner.ownDisk.store.rebuild()
    }
}

/// The running engine when it lends the disk (`Device.lendingEngine`): its type, to call
/// `DiskLendingEngine.handleLent(unretained:…)` through, and the engine itself, unretained.
private struct LendingEngine {
    let type: any DiskLendingEngine.Type
    let object: Unmanaged<AnyObject>

    init(_ engine: any DiskLendingEngine) {
        type = Swift.type(of: engine)
        object = Unmanaged.passUnretained(engine as AnyObject)
    }
}

/// What an empty observation cache holds (`Device.cachedObservation`); never asked.
private struct NoObservation: EngineObservation {
    func recordName(of model: ModelID) -> String? { preconditionFailure("not read") }
    func model(forRecord name: String) -> ModelID? { preconditionFailure("not read") }
    var pendingCount: Int { preconditionFailure("not read") }
    var hasDownloadedOnce: Bool { preconditionFailure("not read") }
}
