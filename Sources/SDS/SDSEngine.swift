import CloudSim
import Kernel
import LocalStore
import SyncContract

/// The `sds` engine: SwiftDataSync's rules (RULES.md) as a deterministic state machine.
///
/// Its memory (the running synchronization, requests in flight, timers it set) is lost on a
/// kill; everything it must keep lives in `SDSSyncData` on the device's disk.
///
/// Invariants, each trapping (`preconditionFailure("sds: …")`) when broken:
/// - one launch per engine; a synchronization starts only once launched and while none runs,
///   and ends only while one runs (`EngineLifecycle`);
/// - only the timers it sets fire (`debounce`, `retry`, `quotaPause`, `rejectedRetry`), and
///   a debounce or retry only while set (`debounceScheduled`, `retryScheduled`: each is
///   cleared only where the timer fires or is cancelled);
/// - an answer the run awaits comes at the step that sent the request (`handleAnswer`);
/// - the upload's answer step is never stepped past without its answer (`step`);
/// - a download step runs in the run's download phase, an upload step in its upload phase
///   (`SyncRun.download`, `SyncRun.upload`), and a page step has its page;
/// - a run never steps 10,000 times without waiting (`advance`).
///
/// Events that can arrive and are ignored: an answer to a request the run no longer awaits
/// (`handleResponse`), a `.resume` no run waits for (`resume`).
public final class SDSEngine: SyncEngine {
    public typealias SyncData = SDSSyncData

    public static let name = "sds"
    /// The store author the engine saves downloaded changes as, so it never records them.
    public static let author = "sds"
    /// The store author of saves made while nothing observed the store (ADOPT-1).
    public static let unobservedAuthor = "unobserved"
    /// SYNC-1's short debounce between a save and the synchronization it starts.
    public static let debounceDelay = SimTime.milliseconds(500)
    /// The largest back-off between retries after transient errors without a retry-after.
    public static let maxBackoff = SimTime.minutes(5)

    public static var probePoints: [String] { SDSProfile.probePoints.map(\.name) }

    let schema: Schema
    let zoneName: String
    let pageSize: Int

    // MARK: Memory (lost on kill)

    /// Not launched, idle or running a synchronization: moved only by its own transitions.
    var lifecycle = EngineLifecycle.notLaunched
    /// The engine was launched (`lifecycle`).
    var launched: Bool { lifecycle.isLaunched }
    /// The running synchronization (`lifecycle`).
    var run: SyncRun? { lifecycle.run }
    /// HDO-2: kept from run to run; an account change or a reset forgets it.
    var accountChecked = false
    /// LIFE-1, from `stop()` to `start()`: a run under way goes on (after its page) to its end.
    var stopped = false
    var autosync = true
    var nextRequestNumber: UInt64 = 0
    /// Another synchronization was asked for while one ran (or while it could not run).
    var wantsSync = false
    /// `@exclusivity(unchecked)`: only the engine's own methods touch it, one event at a time,
    /// and their accesses never overlap (none is held across a call that could reach it
    /// again); the runtime check, paid on each of its accesses at every synchronization
    /// requested or ended, could never fire.
    @exclusivity(unchecked) var waitersForNextRun: [WaiterID] = []
    /// The armed timers, with or without a run: a save or an error during a run sets them.
    var debounceScheduled = false
    var retryScheduled = false
    var backoffFailures = 0
    /// DR-4: this device's last answered save of each record of the app's zone, kept while the
    /// account reads another user's share (by record name; `AppZoneSave`).
    @exclusivity(unchecked) var appZoneSaves: [String: AppZoneSave] = [:]
    /// Until the device is online again, with or without a run or a retry: an offline skip or
    /// a network error sets it, while a retry set earlier stays armed.
    var waitingForNetwork = false
    /// ERR-2: the user deleted the app's data; nothing syncs until `start()` or a launch. The
    /// run that finds it goes on to its end, and `stop()` may hold alongside.
    var zonePurged = false
    /// ERR-4: uploads of saves pause until then (deletions still go, ERR-6).
    var quotaPausedUntil: SimTime?
    /// ERR-5: a share owner's full storage pauses only uploads to shares.
    var sharedQuotaPausedUntil: SimTime?
    /// A `resetSyncData()` waiting for the running synchronization to end (LIFE-2). Not the
    /// run's: an account change ends the run without it, and it waits for the next run's end.
    var pendingReset: (deleteAll: Bool, waiter: WaiterID?)?
    /// The shared database may hold news: after a launch, a push or an account change. A
    /// synchronization started by a local save skips the shared feed when no share is known.
    var sharedDatabaseMayHaveChanged = true
    /// The `initializeSchema()` calls waiting for the run that attempts them (SCHEMA-3).
    var pendingSchemaWaiters: [WaiterID] = []
    var schemaRequested = false

    /// The mechanisms behind the known races; all on except in tests.
    let mechanisms: SDSMechanisms

    /// What the app synchronizes (an extension records its app's changes this way, EXT-1).
    let recordingSchema: Schema
    /// Everything the scenario's schema synchronizes: what this process skips is remembered
    /// for a process that synchronizes it (EXT-2, EXT-3).
    let fullSchema: Schema
    /// This process synchronizes everything the scenario's schema does (no EXT-2, EXT-3
    /// skipping), decided once: `skipsHere` then has nothing to compare per record.
    let synchronizesFullSchema: Bool
    let isExtension: Bool
    /// The entities of `schema`, `recordingSchema` and `fullSchema`, found by name without
    /// copying their descriptions (SDSEntity).
    let entities: SDSEntities
    let recordingEntities: SDSEntities
    let fullEntities: SDSEntities

    public init(
        schema: Schema,
        recordingSchema: Schema? = nil,
        fullSchema: Schema? = nil,
        isExtension: Bool = false,
        zoneName: String = "SwiftDataSync",
        pageSize: Int = 100,
        mechanisms: SDSMechanisms = SDSMechanisms()
    ) {
        self.schema = schema
        self.recordingSchema = recordingSchema ?? schema
        self.fullSchema = fullSchema ?? schema
        synchronizesFullSchema = schema == self.fullSchema
        entities = SDSEntities(schema)
        // A schema equal to `schema` shares its entities (they are worked out from the schema
        // alone): the three schemas are usually one, and each set is dear to make per engine,
        // and its objects as dear again to free.
        recordingEntities = self.recordingSchema == schema
            ? entities : SDSEntities(self.recordingSchema)
        fullEntities = synchronizesFullSchema ? entities : SDSEntities(self.fullSchema)
        self.isExtension = isExtension
        self.zoneName = zoneName
        self.pageSize = pageSize
        self.mechanisms = mechanisms
    }

    // MARK: SyncEngine

    public var state: EngineState {
        if !launched { return .notRunning }
        if zonePurged { return EngineState("error", "userDeletedZone") }
        if stopped { return .stopped }
        if run != nil { return .syncing }
        if quotaPausedUntil != nil { return EngineState("paused", "quotaExceeded") }
        if retryScheduled { return EngineState("waiting", "retryAfter") }
        if waitingForNetwork { return EngineState("waiting", "network") }
        if hasRejectedRecords { return EngineState("error", "incompleteUpload") }
        return .idle
    }

    /// Set by the engine's last look at its sync data: records are set aside (SCHEMA-4).
    var hasRejectedRecords = false

    /// The effects of the event being handled, appended to by every step; empty between
    /// events. `@exclusivity(unchecked)`: only the engine's own methods touch it, one event at
    /// a time, and no access is held across a call that appends to it again.
    @exclusivity(unchecked) var effects: [EngineEffect] = []

    public func isIdle(now: SimTime) -> Bool { run == nil }

    /// `autosync off` / `on`: whether saves and pushes start synchronizations.
    public func setAutosync(_ enabled: Bool) {
        autosync = enabled
    }

    /// Whether the account was checked since launch (HDO-2).
    public var hasCheckedAccount: Bool { accountChecked }

    /// Handles one event. sds writes its disk once per event, before anything else it asks
    /// for: the store and the sync data together, atomically (the first effect), so a kill
    /// anywhere in the event's effects finds the event's writes done.
    public func handle(_ event: EngineEvent, context: inout SDSContext) -> [EngineEffect] {
        // The write's place is kept first and filled in at the end: no effect is moved.
        var handled = Self.newEffects()
        swap(&handled, &effects)
        handleWithoutWriting(event, context: &context)
        swap(&handled, &effects)
        handled[0] = context.writeAll
        return handled
    }

    /// Room for the effects of most events (the write's place, a probe or a request, a few
    /// traces), reserved at once (`newEffects`): more would take the buffer out of malloc's
    /// fast path for small blocks (docs/BENCH.md).
    private static let usualEffectCount = 6

    /// An event's effects array when the device gave none back: the write's place (filled in
    /// at the end of the event), with room for the usual effects, so appends do not grow it.
    private static func newEffects() -> [EngineEffect] {
        var effects: [EngineEffect] = []
        effects.reserveCapacity(usualEffectCount)
        effects.append(.probe(""))
        return effects
    }

    /// `handle(_:context:)` over the device's disk itself, in this engine's own (specialized)
    /// code: the store and box are changed in place and hold the event's write when it
    /// returns; the world's in-line resumes are made here too (DiskLendingEngine).
    package func handleLent(
        _ event: EngineEvent,
        conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        reusing spare: inout [EngineEffect]
    ) -> [EngineEffect] {
        // The device's array, taken (an empty one left), holds the write's place already.
        // (Consumed: a copy left in `given` for the event made the first append copy it.)
        var given: [EngineEffect] = []
        swap(&given, &spare)
        if given.isEmpty { given = Self.newEffects() }
        return SDSContext.handlingLentDisk(
            event, lending: &conditions, disk: &store, syncData: &syncData, names: &names,
            resumingInLine: &passes, effects: consume given
        ) { event, context, buffer in
            // The event's buffer is the engine's while it handles the event (swapped: moved,
            // not copied), so every step appends to `effects` without passing it along.
            swap(&buffer, &effects)
            handleWithoutWriting(event, context: &context)
            swap(&buffer, &effects)
        }
    }

    // (`DiskLendingEngine` conformance: the extension at the end of this file.)
    private func handleWithoutWriting(_ event: EngineEvent, context: inout SDSContext) {
        hasRejectedRecords = !context.syncData.rejected.isEmpty
        // Most events resume a run after a probe point: asked first, they skip the switch,
        // which read every word of the event (a response's payload) for any case.
        if case .resume = event {
            resume(context: &context)
        } else {
            handleOther(event, context: &context)
        }
        hasRejectedRecords = !context.syncData.rejected.isEmpty
    }

    /// `.resume`: the run continues after its probe point. One can find no run waiting for
    /// it: an account change ends the run with a `sync.done` probe of its own, resumed after.
    /// The run is stepped unretained: only `advance` ends it, and holds it while it finishes.
    private func resume(context: inout SDSContext) {
        guard let unretained = lifecycle.unretainedRun else { return }
        unretained._withUnsafeGuaranteedRef { current in
            current.awaitingResume = false
            advance(current, context: &context)
        }
    }

    /// The events other than `.resume` (`handleWithoutWriting`).
    private func handleOther(_ event: EngineEvent, context: inout SDSContext) {
        switch event {
        case .launch(let waiter):
            handleLaunch(waiter: waiter, context: &context)
        case .storeSaved:
            recordLocalChanges(context: &context)
            if autosync && !stopped && !debounceScheduled {
                debounceScheduled = true
                effects.append(.setTimer(.debounce, after: Self.debounceDelay))
            }
        case .push:
            if stopped || zonePurged {
                effects.addTrace(detailed: context.isTracing, kind: "push.ignored", details: [],
                    rules: stopped ? ["LIFE-1"] : ["ERR-2"])
            } else {
                effects.addTrace(detailed: context.isTracing, kind: "push.received", details: [],
                    rules: [])
                sharedDatabaseMayHaveChanged = true
                if autosync { requestSync(waiter: nil, context: &context) }
            }
        case .timer(let timer):
            handleTimer(timer, context: &context)
        case .response(let id, let response):
            handleResponse(id, response, context: &context)
        case .resume:
            resume(context: &context)
        case .appCall(let call, let waiter):
            handleAppCall(call, waiter: waiter, context: &context)
        case .accountChanged:
            sharedDatabaseMayHaveChanged = true
            handleAccountChange(context: &context)
        case .observerAttached:
            findModelsWithoutRecords(context: &context)
            if autosync { requestSync(waiter: nil, context: &context) }
        case .storeReplaced:
            findModelsWithoutRecords(context: &context)
            if autosync { requestSync(waiter: nil, context: &context) }
        case .networkChanged(let online):
            if online && (waitingForNetwork || wantsSync) {
                waitingForNetwork = false
                requestSync(waiter: nil, context: &context)
            }
        }
    }

    /// The app calls sds supports: all five (its profile lists them).
    private func handleAppCall(_ call: AppCall, waiter: WaiterID?, context: inout SDSContext) {
        switch call {
        case .syncNow:
            sharedDatabaseMayHaveChanged = true
            endQuotaPause(reason: "forceDownload()")
            retryRejectedNow(context: &context)
            requestSync(waiter: waiter, context: &context)
        case .stop:
            stopped = true
            effects.addTrace(detailed: context.isTracing, kind: "engine.stopped", details: [],
                rules: ["LIFE-1"])
        case .start:
            stopped = false
            sharedDatabaseMayHaveChanged = true
            if zonePurged {
                zonePurged = false
                effects.addTrace(detailed: context.isTracing,
                    kind: "engine.started-after-user-deleted-zone", details: [], rules: ["ERR-2"])
            }
            endQuotaPause(reason: "start()")
            requestSync(waiter: waiter, context: &context)
        case .resetSyncData(let deleteAll):
            stopped = true
            pendingReset = (deleteAll, waiter)
            if run == nil { performReset(context: &context) }
        case .initializeSchema:
            if let waiter { pendingSchemaWaiters.append(waiter) }
            schemaRequested = true
            requestSync(waiter: nil, context: &context)
            if run == nil, let reason = syncBlocker(context: context)?.reason {
                // No synchronization can start (no account, offline, stopped, …): the
                // attempt fails now instead of leaving its caller waiting forever.
                failSchema(reason: "synchronizing cannot start (\(reason))")
            }
        }
    }

    // MARK: Lifecycle

    private func handleLaunch(waiter: WaiterID?, context: inout SDSContext) {
        lifecycle.launch()
        accountChecked = false
        zonePurged = false
        if mechanisms.forgetsPendingChangesOnLaunch {
            context.syncData.pending = [:]
            context.syncData.pendingDeletions = [:]
        }
        if context.syncData.pageInProgress {
            // DL-5: the last page's records were stored but not its token: the download
            // continues from the saved token, which fetches that page again.
            context.syncData.pageInProgress = false
            effects.addTrace(detailed: context.isTracing, kind: "download.page.repaired",
                details: [], rules: ["DL-5"])
        }
        recordLocalChanges(context: &context)
        findModelsWithoutRecords(context: &context)
        if isExtension {
            effects.addTrace(detailed: context.isTracing,
                kind: "extension.launched",
                details: [TraceField("syncData", .string("the app group's, shared with the app"))],
                rules: ["EXT-1"]
            )
        }
        keepNamesFromBeforeIdentities(context: context)
        requestSync(waiter: waiter, context: &context)
    }

    private func handleTimer(_ timer: EngineTimer, context: inout SDSContext) {
        switch timer {
        case .debounce:
            // The world cancels a timer for good and drops a killed incarnation's timers.
            precondition(debounceScheduled, "sds: a debounce fired that was cancelled or not set")
            debounceScheduled = false
            // A synchronization that has not started uploading will upload these changes.
            if let current = run, !current.hasStartedUploading { return }
            requestSync(waiter: nil, context: &context)
        case .retry:
            precondition(retryScheduled, "sds: a retry fired that was cancelled or not set")
            retryScheduled = false
            requestSync(waiter: nil, context: &context)
        case .quotaPause:
            sharedQuotaPausedUntil = nil
            if quotaPausedUntil != nil {
                quotaPausedUntil = nil
                effects.addTrace(detailed: context.isTracing, kind: "quota.pause-ended",
                    details: [TraceField("after", .string("30 minutes"))], rules: ["ERR-4"])
            }
            requestSync(waiter: nil, context: &context)
        case .rejectedRetry:
            releaseRejected(upTo: context.now, context: &context)
            requestSync(waiter: nil, context: &context)
        default:
            preconditionFailure("sds set no timer '\(timer)'")
        }
    }

    /// Starts a synchronization now, or marks one as wanted after the running one.
    func requestSync(waiter: WaiterID?, context: inout SDSContext) {
        if let waiter { waitersForNextRun.append(waiter) }
        wantsSync = true
        guard run == nil else { return }
        guard canSync(context: context) else {
            completeWaiters(waitersForNextRun)
            waitersForNextRun = []
            return
        }
        wantsSync = false
        if debounceScheduled {
            debounceScheduled = false
            effects.append(.cancelTimer(.debounce))
        }
        if retryScheduled {
            retryScheduled = false
            effects.append(.cancelTimer(.retry))
        }
        let started = SyncRun(waiters: waitersForNextRun)
        started.carriesSchema = schemaRequested
        lifecycle.start(started)
        waitersForNextRun = []
        advance(started, context: &context)
    }

    private func canSync(context: SDSContext) -> Bool {
        guard let blocker = syncBlocker(context: context) else { return true }
        guard launched else { return false }
        if blocker.reason == "offline" { waitingForNetwork = true }
        effects.addTrace(detailed: context.isTracing, kind: "sync.skipped",
                              details: [TraceField("reason", .string(blocker.reason))],
                              rules: blocker.rules)
        return false
    }

    /// Why no synchronization can start now, with the rules that say so; nil when one can.
    func syncBlocker(context: SDSContext) -> (reason: String, rules: [String])? {
        if !launched { return ("the app is not running", []) }
        if stopped { return ("stopped", ["LIFE-1"]) }
        if zonePurged { return ("user deleted zone", ["ERR-2"]) }
        if context.account.isNil { return ("signed out", []) }
        if context.accountStatus == .temporarilyUnavailable {
            return ("account temporarily unavailable", ["ACCT-2"])
        }
        if !context.isOnline { return ("offline", []) }
        return nil
    }

    /// `CKAccountChanged`: ACCT-5 stops a running synchronization; the next one checks the
    /// account again (HDO-2) and decides between ACCT-1 and ACCT-3.
    private func handleAccountChange(context: inout SDSContext) {
        accountChecked = false
        if let current = run {
            effects.addTrace(detailed: context.isTracing, kind: "sync.stopped-by-account-change",
                details: [], rules: ["ACCT-5"])
            lifecycle.end()
            completeWaiters(current.waiters)
            if current.carriesSchema {
                failSchema(reason: "the account changed")
            }
            effects.append(.probe("sync.done"))
            effects.addTrace(detailed: context.isTracing, kind: "sync.ended", details: [],
                rules: [])
            // LIFE-2: a reset that waited for this run is done now that it ended.
            if pendingReset != nil { performReset(context: &context) }
        }
        if context.accountStatus == .temporarilyUnavailable {
            effects.addTrace(detailed: context.isTracing,
                kind: "account.temporarily-unavailable",
                details: [TraceField("reset", .bool(false))], rules: ["ACCT-2"])
            wantsSync = true
            return
        }
        guard let account = context.account else {
            effects.addTrace(detailed: context.isTracing, kind: "account.signed-out",
                details: [], rules: [])
            wantsSync = true
            return
        }
        if let previous = context.syncData.account, previous != account {
            // ACCT-3 now, so changes saved from here on belong to the new account.
            startOverWithAccount(account, context: &context)
        }
        requestSync(waiter: nil, context: &context)
    }

    func endQuotaPause(reason: String) {
        sharedQuotaPausedUntil = nil
        guard quotaPausedUntil != nil else { return }
        quotaPausedUntil = nil
        effects.append(.cancelTimer(.quotaPause))
        effects.addTrace(detailed: true, kind: "quota.pause-ended",
            details: [TraceField("by", .string(reason))], rules: ["ERR-4"])
    }

    func completeWaiters(_ waiters: [WaiterID]) {
        for waiter in waiters { effects.append(.completed(waiter)) }
    }

    func makeRequestID() -> RequestID {
        nextRequestNumber += 1
        return RequestID(nextRequestNumber)
    }

    func appZone(_ context: SDSContext) -> ZoneID {
        ZoneID(owner: context.account ?? "", name: zoneName)
    }
}

/// sds handles a lent disk in its own code (`handleLent`, above).
extension SDSEngine: DiskLendingEngine {
    package static func handleLent(
        unretained engine: Unmanaged<AnyObject>,
        _ event: EngineEvent,
        conditions: inout DeviceConditions,
        disk store: inout Store,
        syncData: inout SyncDataBox,
        names: inout Xoshiro256StarStar,
        resumingInLine passes: inout Int,
        reusing spare: inout [EngineEffect]
    ) -> [EngineEffect] {
        engine._withUnsafeGuaranteedRef {
            unsafeDowncast($0, to: SDSEngine.self).handleLent(
                event, conditions: &conditions, disk: &store, syncData: &syncData,
                names: &names, resumingInLine: &passes, reusing: &spare)
        }
    }
}
