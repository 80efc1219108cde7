import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

/// The context `mirror` handles events in: its sync data is `MirrorSyncData`.
typealias MirrorContext = EngineContext<MirrorSyncData>

extension EngineTimer {
    /// MIR-7: the export the system scheduler runs after a save.
    static let mirrorExport = EngineTimer("export")
    /// MIR-8: the import after a push.
    static let mirrorImport = EngineTimer("import")
    /// MIR-22: the scheduler's retry of a failed request.
    static let mirrorRetry = EngineTimer("retry")
}

/// The `mirror` engine: SwiftData's built-in CloudKit mirroring (NSPersistentCloudKitContainer,
/// seed 003) as docs/MIRROR.md specifies it, a deterministic state machine.
///
/// The store is validated when it loads (MIR-1); then setup, import and export requests run
/// one at a time from a queue (MIR-6). Exports are driven by the store's history (MIR-12),
/// imports write every field of every fetched record (MIR-15), and conflicts are never
/// detected (MIR-14).
///
/// The running request holds only its kind's memory (`MirrorRequest.Work`) and where it
/// stands (`MirrorRequest.Progress`); one event's effects gather in `effects`. Invariants the
/// world keeps, trapped when broken: a `.resume` comes only for the probe point the running
/// request paused at; a timer fires only while armed (the export's and the import's while
/// scheduled, the retry's while failed requests wait); a store that did not load arms no
/// timer and sends nothing. An answer to no request in flight is ignored: a killed
/// incarnation's request can reach the cloud after the kill, and its answer comes here.
public final class MirrorEngine: SyncEngine {
    public typealias SyncData = MirrorSyncData

    public static let name = "mirror"
    /// MIR-15: the author of the import's saves, which exports ignore.
    public static let author = "NSCloudKitMirroringDelegateImportContextName"
    /// MIR-7 / MIR-8: the system scheduler's delay (a choice).
    public static let schedulerDelay = SimTime.seconds(1)
    /// MIR-22: the retry delay when an error names none (the same after every failure).
    public static let defaultRetryDelay = SimTime.seconds(60)
    /// Records per modifyRecords (CloudKit's 400-item limit).
    static let batchLimit = 400
    /// Field bytes per modifyRecords, under CloudKit's 2 MB request limit.
    static let batchBytes = 1_500_000

    let schema: LocalStore.Schema
    let pageSize: Int
    /// MIR-1: why the store did not load; nil when it loaded.
    let loadFailure: StoreLoadFailure?

    // MARK: Memory (lost on kill)

    var autosync = true
    /// MIR-6: the requests queued by kind, and the one running.
    var runner = StepRunner<MirrorRequest.Kind, MirrorRequest>()
    var nextRequestNumber = 0
    var nextCloudRequest: UInt64 = 0
    var requestOwners: [RequestID: Int] = [:]
    /// Script actions (`launch`, `sync`) waiting for the queue to empty (MIR-11).
    var waiters: [WaiterID] = []
    /// The queue cannot run: offline, or no usable account (it waits, idle).
    var isBlocked = false
    /// The device is offline (MIR-10), as the last event told.
    var isOffline = false
    var exportScheduled = false
    var importScheduled = false
    /// MIR-22: the requests to run again when the retry timer fires (or a push comes first).
    var retryKinds: [MirrorRequest.Kind] = []
    /// The state a failed event left (MIR-22): `error(CODE)`, `waiting(retryAfter)`.
    var failureState: EngineState?
    /// Why nothing runs until the account changes, if so: MIR-20's sign-out, or MIR-21's
    /// setup failure (134400).
    var accountWait: AccountWait?

    enum AccountWait {
        case signedOut
        case unusableAccount
    }

    /// How many account changes this process has seen (a setup's check is stale after one).
    var accountChanges = 0
    /// The account the app launched with or the last completed setup ran for, and the other
    /// accounts the app saved under since (MIR-DR-3).
    var setUpAccount: String?
    var savedUnderOtherAccounts: [String] = []
    /// MIRW-1: when the device last came online, when an export of it last failed, and when
    /// its last import completed.
    var onlineSince: SimTime?
    var lastExportFailure: SimTime?
    var lastImportDone: SimTime?
    /// The engine's count of what it still intends to export, refreshed after every event.
    var pendingModels: [ModelID] = []
    var pendingDeletes: [String] = []
    /// The effects of the event being handled, in order (empty between events).
    var effects: [EngineEffect] = []

    public init(schema: LocalStore.Schema, pageSize: Int = 100) {
        self.schema = schema
        self.pageSize = pageSize
        self.loadFailure = MirrorModelValidation.validate(schema)
    }

    // MARK: SyncEngine

    public var state: EngineState {
        if loadFailure != nil { return EngineState("error", "storeLoadFailed") }
        if accountWait == .unusableAccount { return EngineState("waiting", "account") }
        if let active = runner.running {
            return EngineState("syncing",
                active.kind == .initializeSchema ? "setup" : active.kind.rawValue)
        }
        if let failureState { return failureState }
        if isOffline,
           runner.queuedCount > 0 || exportScheduled || !pendingModels.isEmpty
            || !pendingDeletes.isEmpty {
            // MIR-10: the work waits for the network.
            return EngineState("waiting", "network")
        }
        return .idle
    }

    public func isIdle(now: SimTime) -> Bool {
        runner.running == nil && (runner.queuedCount == 0 || isBlocked) && !exportScheduled
            && !importScheduled
    }

    public func setAutosync(_ enabled: Bool) {
        autosync = enabled
    }

    public func handle(
        _ event: EngineEvent, context: inout EngineContext<MirrorSyncData>
    ) -> [EngineEffect] {
        isOffline = !context.isOnline
        if let loadFailure {
            storeNotLoaded(event, loadFailure)
            return takeEffects()
        }
        switch event {
        case .launch(let waiter):
            setUpAccount = context.account
            launch(waiter: waiter, context: &context)
        case .storeSaved:
            storeSaved(context: &context)
        case .push:
            pushed(context: &context)
        case .timer(let timer):
            timerFired(timer, context: &context)
        case .response(let id, let response):
            answered(id, response, context: &context)
        case .resume(let ticket):
            resume(ticket, context: &context)
        case .appCall(let call, let waiter):
            appCall(call, waiter: waiter, context: &context)
        case .storeReplaced:
            storeReplaced(context: &context)
        case .observerAttached:
            // Persistent history records every save, observed or not (MIR-29).
            effects.append(.trace(kind: "observer.attached", details: [
                TraceField("note",
                    .string("the history holds every save: the next export sends them")),
            ], rules: ["MIR-29"]))
            scheduleExport(context: context)
        case .accountChanged:
            accountChanged(context: &context)
        case .networkChanged(let online):
            networkChanged(online: online, context: &context)
        }
        persistPending(context: &context)
        return takeEffects()
    }

    /// The event's effects, handed out; the buffer is empty again for the next event.
    private func takeEffects() -> [EngineEffect] {
        var taken: [EngineEffect] = []
        swap(&taken, &effects)
        return taken
    }

    /// MIR-20: an account change queues setup, import and export.
    private func accountChanged(context: inout MirrorContext) {
        accountWait = nil
        accountChanges += 1
        effects.append(.trace(kind: "account.changed", details: [
            TraceField("account", context.account.map { .string($0) } ?? .null),
            TraceField("status", .string(context.accountStatus.description)),
        ], rules: ["MIR-20"]))
        enqueue(.setup, context: &context)
        enqueue(.import, context: &context)
        enqueue(.export, context: &context)
    }

    // MARK: MIR-2: a store that did not load

    /// Nothing synchronizes: only a launch and app calls answer; nothing was sent or armed.
    private func storeNotLoaded(_ event: EngineEvent, _ failure: StoreLoadFailure) {
        switch event {
        case .launch(let waiter):
            effects.append(.trace(kind: "store.load-failed", details: [
                TraceField("domain", .string(failure.domain)),
                TraceField("code", .int(Int64(failure.code))),
                TraceField("error",
                    .string("Store failed to load. with error = " + failure.errorDescription)),
                TraceField("failureReason", .string(failure.failureReason)),
                TraceField("note", .string("nothing synchronizes on this device")),
            ], rules: ["MIR-1", "MIR-2", "MIR-3", "MIRW-7"]))
            if let waiter { effects.append(.completed(waiter)) }
            effects.append(.probe("mirror.store.load-failed"))
        case .appCall(_, let waiter):
            effects.append(.trace(kind: "app-call.store-not-loaded", details: [], rules: ["MIR-2"]))
            if let waiter {
                effects.append(.failed(waiter, reason: "the store failed to load (MIR-2)"))
            }
        case .resume:
            // The resume of `mirror.store.load-failed`: nothing waits for it.
            break
        case .storeSaved, .push, .storeReplaced, .observerAttached, .accountChanged,
             .networkChanged:
            // The world's own events still come; nothing synchronizes to act on them.
            break
        case .timer(let timer):
            preconditionFailure("mirror: timer \(timer) fired, but a store not loaded arms none")
        case .response(let id, _):
            preconditionFailure("mirror: answer to \(id), but a store not loaded sends nothing")
        }
    }

    // MARK: The queue (MIR-6)

    /// Queues a request unless one of its kind already waits (MIR-6); starts it when none runs.
    func enqueue(_ kind: MirrorRequest.Kind, context: inout MirrorContext) {
        if runner.enqueueUnlessQueued(kind) {
            if runner.running != nil {
                effects.append(.trace(kind: "request.deferred", details: [
                    TraceField("request", .string(kind.rawValue)),
                    TraceField("note", .string("there is still an active request")),
                ], rules: ["MIR-6"]))
            }
        }
        startNext(context: &context)
    }

    /// Starts the next queued request when none runs, the account allows and the device is
    /// online (MIR-10: offline, the queue waits for the network).
    func startNext(context: inout MirrorContext) {
        guard runner.running == nil else { return }
        isBlocked = !context.isOnline || accountWait != nil
        guard !isBlocked else {
            // The queue cannot drain now: a waiting `sync` or `launch` ends (MIR-11).
            for waiter in waiters { effects.append(.completed(waiter)) }
            waiters = []
            return
        }
        guard let kind = runner.takeNext() else {
            finishWaiters()
            return
        }
        nextRequestNumber += 1
        let request = MirrorRequest(number: nextRequestNumber, kind: kind,
            accountChanges: accountChanges)
        runner.start(request)
        effects.append(.trace(kind: "request.started", details: [
            TraceField("request", .string(kind.rawValue)),
            TraceField("number", .int(Int64(request.number))),
        ], rules: ["MIR-6"]))
        switch kind {
        case .setup:
            pass(["sync.start"], then: .setupNext, request, context: &context)
        case .import:
            pass(["sync.start", "mirror.import.start", "download.start"],
                then: .fetchDatabaseChanges, request, context: &context)
        case .export:
            pass(["sync.start", "mirror.export.start", "download.start", "download.done"],
                then: .serialize, request, context: &context)
        case .initializeSchema:
            pass(["sync.start", "download.start", "download.done"], then: .serialize,
                 request, context: &context)
        }
    }

    /// The active request is over: the next one runs.
    func endRequest(_ request: MirrorRequest, context: inout MirrorContext) {
        guard runner.running === request else { return }
        runner.finish()
        startNext(context: &context)
    }

    /// MIR-11: `sync` and `launch` end once nothing is queued, running or scheduled.
    private func finishWaiters() {
        guard runner.isIdle, !exportScheduled, !importScheduled else { return }
        for waiter in waiters { effects.append(.completed(waiter)) }
        waiters = []
    }

    // MARK: Probe points

    /// Passes probe points one by one (each stops the engine until `.resume`), then `step`;
    /// a cloud request in flight stays in flight meanwhile.
    func pass(
        _ probes: [String], then step: MirrorRequest.Step, _ request: MirrorRequest,
        context: inout MirrorContext
    ) {
        guard let first = probes.first else {
            run(step, request, context: &context)
            return
        }
        guard case .running = request.progress else {
            preconditionFailure("mirror: probe points passed while the request waits")
        }
        request.progress = .paused(probes: Array(probes.dropFirst()), then: step)
        effects.append(.probe(first))
    }

    /// Passes a probe point while the request's cloud request is in flight; its answer, if it
    /// comes first, waits for the resume.
    func passAwaiting(_ probe: String, _ request: MirrorRequest) {
        guard case .awaiting(let id) = request.progress else {
            preconditionFailure("mirror: no cloud request in flight to pass \(probe) with")
        }
        request.progress = .pausedAwaiting(probes: [], id)
        effects.append(.probe(probe))
    }

    /// Goes on after the probe point the running request paused at: the next probe point,
    /// else its step, or the answer that came meanwhile.
    private func resume(_ ticket: ProbeTicket, context: inout MirrorContext) {
        guard ticket == .sole, let request = runner.running else {
            preconditionFailure("mirror: resumed (\(ticket)) with no request running")
        }
        switch request.progress {
        case .running, .awaiting:
            preconditionFailure("mirror: resumed with nothing paused")
        case .paused(var probes, let step):
            request.progress = .running
            guard probes.isEmpty else {
                effects.append(.probe(probes.removeFirst()))
                request.progress = .paused(probes: probes, then: step)
                return
            }
            run(step, request, context: &context)
        case .pausedAwaiting(var probes, let id):
            guard probes.isEmpty else {
                request.progress = .running
                effects.append(.probe(probes.removeFirst()))
                request.progress = .pausedAwaiting(probes: probes, id)
                return
            }
            request.progress = .awaiting(id)
        case .pausedAnswered(var probes, let answer):
            request.progress = .running
            guard probes.isEmpty else {
                effects.append(.probe(probes.removeFirst()))
                request.progress = .pausedAnswered(probes: probes, answer)
                return
            }
            handleAnswer(answer, request, context: &context)
        }
    }

    func run(_ step: MirrorRequest.Step, _ request: MirrorRequest, context: inout MirrorContext) {
        switch (step, request.work) {
        case (.setupNext, .setup(let setup)):
            setupNext(request, setup, context: &context)
        case (.fetchDatabaseChanges, .import):
            send(.fetchDatabaseChanges(scope: .privateDatabase,
                token: context.syncData.databaseToken), for: request)
        case (.fetchPage, .import):
            send(.fetchZoneChanges(scope: .privateDatabase, zone: zone(context),
                                   token: context.syncData.zoneToken, resultsLimit: pageSize),
                 for: request)
        case (.storePage, .import(let work)):
            storePage(request, work, context: &context)
        case (.afterPage, .import(let work)):
            afterPage(request, work, context: &context)
        case (.serialize, .export(let work)):
            serializeExport(request, work, context: &context)
        case (.serialize, .initializeSchema(let work)):
            initializeSchema(request, work, context: &context)
        case (.sendBatch, _):
            sendBatch(request, context: &context)
        case (.serializeDone, .export(let work)):
            finishExport(request, work, context: &context)
        case (.finish, _):
            endRequest(request, context: &context)
        default:
            preconditionFailure("mirror: step \(step) is no step of \(request.kind)")
        }
    }

    /// Sends the request's one cloud request; its answer is due next.
    func send(_ cloudRequest: CloudRequest, for owner: MirrorRequest) {
        guard case .running = owner.progress else {
            preconditionFailure("mirror: a second cloud request while one is in flight")
        }
        nextCloudRequest += 1
        let id = RequestID(nextCloudRequest)
        owner.progress = .awaiting(id)
        effects.append(.send(id, cloudRequest))
    }

    /// The answer to the running request's cloud request goes on with it (or waits for the
    /// resume of the probe point passed meanwhile).
    private func answered(
        _ id: RequestID, _ response: CloudResponse, context: inout MirrorContext
    ) {
        guard let request = runner.running else { return staleAnswer() }
        switch request.progress {
        case .awaiting(let awaited) where awaited == id:
            request.progress = .running
            handleAnswer(response, request, context: &context)
        case .pausedAwaiting(let probes, let awaited) where awaited == id:
            request.progress = .pausedAnswered(probes: probes, response)
        default:
            staleAnswer()
        }
    }

    /// Ignored: a killed incarnation's request that reached the cloud after the kill is
    /// answered to this one (its id one this incarnation may use too, or have used).
    private func staleAnswer() {}

    private func handleAnswer(
        _ response: CloudResponse, _ request: MirrorRequest, context: inout MirrorContext
    ) {
        switch request.work {
        case .setup(let setup): setupAnswered(response, request, setup, context: &context)
        case .import(let work): importAnswered(response, request, work, context: &context)
        case .export(let work): exportAnswered(response, request, work, context: &context)
        case .initializeSchema(let work):
            initializeSchemaAnswered(response, request, work, context: &context)
        }
    }

    // MARK: Triggers

    /// MIR-9: a launch runs setup, then an import, then an export; the script's `launch`
    /// ends when they are done.
    private func launch(
        waiter: WaiterID?, context: inout MirrorContext
    ) {
        onlineSince = context.isOnline ? context.now : nil
        effects.append(.trace(kind: "store.loaded", details: [
            TraceField("zone", .string(MirrorCodec.zoneName)),
        ], rules: ["MIR-1", "MIR-9"]))
        if let waiter { waiters.append(waiter) }
        refreshPending(context)
        if !pendingModels.isEmpty || !pendingDeletes.isEmpty {
            // MIR-28: a kill lost nothing: the history still holds what the last run did not
            // export, and this launch's export sends it.
            effects.append(.trace(kind: "launch.history-pending", details: [
                TraceField("objects", .int(Int64(pendingModels.count))),
                TraceField("deletions", .int(Int64(pendingDeletes.count))),
            ], rules: ["MIR-28"]))
        }
        nameNewObjects(context: &context)
        enqueue(.setup, context: &context)
        enqueue(.import, context: &context)
        enqueue(.export, context: &context)
    }

    /// MIR-7: a save is in the history; the export runs a scheduler delay later, and saves
    /// within that delay join it.
    private func storeSaved(context: inout MirrorContext) {
        if let account = context.account, let setUpAccount, account != setUpAccount,
           !savedUnderOtherAccounts.contains(account) {
            savedUnderOtherAccounts.append(account)
        }
        nameNewObjects(context: &context)
        scheduleExport(context: context)
    }

    /// MIR-4: a new object gets its random record name when its save is seen, written at
    /// once, so that the export itself writes nothing before its request leaves.
    func nameNewObjects(context: inout MirrorContext) {
        var named: [TraceValue] = []
        for id in pendingChanges(context).models where !context.syncData.bindings.isBound(id) {
            let name = context.makeRandomRecordName()
            context.syncData.bindings.bind(id, to: name)
            named.append(.string(name))
        }
        guard !named.isEmpty else { return }
        effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
        effects.append(.trace(kind: "record.named", details: [
            TraceField("recordNames", .list(named)),
        ], rules: ["MIR-4"]))
    }

    func scheduleExport(context: MirrorContext) {
        guard autosync else {
            effects.append(.trace(kind: "export.not-scheduled", details: [
                TraceField("reason", .string("autosync off")),
            ], rules: []))
            return
        }
        if exportScheduled {
            effects.append(.trace(kind: "export.coalesced", details: [], rules: ["MIR-7"]))
            return
        }
        exportScheduled = true
        effects.append(.setTimer(.mirrorExport, after: Self.schedulerDelay))
        effects.append(.trace(kind: "export.scheduled", details: [
            TraceField("after", .int(Self.schedulerDelay.microseconds)),
        ], rules: ["MIR-7", "MIRW-10"]))
    }

    /// MIR-8: a push schedules an import.
    private func pushed(context: inout MirrorContext) {
        guard autosync else {
            effects.append(.trace(kind: "push.ignored", details: [
                TraceField("reason", .string("autosync off")),
            ], rules: []))
            return
        }
        guard !importScheduled else { return }
        importScheduled = true
        effects.append(.setTimer(.mirrorImport, after: Self.schedulerDelay))
        effects.append(.trace(kind: "import.scheduled", details: [
            TraceField("after", .int(Self.schedulerDelay.microseconds)),
        ], rules: ["MIR-8"]))
    }

    /// The world fires only a timer armed and not cancelled, and only for the incarnation
    /// that armed it: the export's and the import's while scheduled, the retry's while
    /// failed requests wait for it.
    private func timerFired(_ timer: EngineTimer, context: inout MirrorContext) {
        switch timer {
        case .mirrorExport:
            precondition(exportScheduled, "mirror: the export timer fired, not scheduled")
            exportScheduled = false
            enqueue(.export, context: &context)
        case .mirrorImport:
            precondition(importScheduled, "mirror: the import timer fired, not scheduled")
            importScheduled = false
            if retryKinds.isEmpty {
                enqueue(.import, context: &context)
            } else {
                retryEarly(with: .import, trigger: "push", context: &context)
            }
        case .mirrorRetry:
            precondition(!retryKinds.isEmpty, "mirror: the retry timer fired, nothing failed")
            let kinds = retryKinds
            retryKinds = []
            effects.append(.trace(kind: "retry.due", details: [
                TraceField("requests", .list(kinds.map { .string($0.rawValue) })),
            ], rules: ["MIR-22"]))
            for kind in kinds { enqueue(kind, context: &context) }
        default:
            preconditionFailure("mirror: timer \(timer) fired, which mirror never arms")
        }
    }

    /// MIR-22: a push does not wait for the retry timer: the failed requests run again with
    /// the import it brings, in the launch's order (setup, import, export), and the timer is
    /// cancelled.
    private func retryEarly(
        with kind: MirrorRequest.Kind, trigger: String, context: inout MirrorContext
    ) {
        let order: [MirrorRequest.Kind] = [.setup, .import, .export, .initializeSchema]
        let kinds = order.filter { $0 == kind || retryKinds.contains($0) }
        retryKinds = []
        effects.append(.cancelTimer(.mirrorRetry))
        effects.append(.trace(kind: "retry.early", details: [
            TraceField("requests", .list(kinds.map { .string($0.rawValue) })),
            TraceField("trigger", .string(trigger)),
        ], rules: ["MIR-22"]))
        for kind in kinds { enqueue(kind, context: &context) }
    }

    /// MIR-10: back online, the queued requests run, and an export if local changes wait;
    /// a push missed meanwhile brings the import afterwards.
    private func networkChanged(
        online: Bool, context: inout MirrorContext
    ) {
        guard online else {
            onlineSince = nil
            return
        }
        onlineSince = context.now
        refreshPending(context)
        let waiting = !pendingModels.isEmpty || !pendingDeletes.isEmpty
        effects.append(.trace(kind: "network.back", details: [
            TraceField("pending", .int(Int64(pendingModels.count + pendingDeletes.count))),
        ], rules: ["MIR-10"]))
        if !retryKinds.isEmpty {
            // The requests that failed offline are scheduled too: they run now, before the
            // queued ones, in the launch's order (a setup before the import that needs its
            // subscription), and the retry timer is cancelled (MIR-10, MIR-22).
            let order: [MirrorRequest.Kind] = [.setup, .import, .export, .initializeSchema]
            let kinds = order.filter { retryKinds.contains($0) || runner.isQueued($0) }
            effects.append(.trace(kind: "retry.early", details: [
                TraceField("requests", .list(retryKinds.map { .string($0.rawValue) })),
                TraceField("trigger", .string("network")),
            ], rules: ["MIR-22", "MIR-10"]))
            retryKinds = []
            effects.append(.cancelTimer(.mirrorRetry))
            runner.moveToFront(kinds)
        }
        if waiting { enqueue(.export, context: &context) }
        startNext(context: &context)
    }

    private func appCall(
        _ call: AppCall, waiter: WaiterID?, context: inout MirrorContext
    ) {
        switch call {
        case .syncNow:
            // MIR-11: nothing can force a synchronization; `sync` waits for the queue.
            effects.append(.trace(kind: "sync.cannot-force", details: [
                TraceField("queued", .list(runner.queued.map { .string($0.rawValue) })),
                TraceField("running", runner.running.map { .string($0.kind.rawValue) } ?? .null),
            ], rules: ["MIR-11", "MIRW-10"]))
            if let waiter { waiters.append(waiter) }
            finishWaiters()
        case .initializeSchema:
            if let waiter { waiters.append(waiter) }
            enqueue(.initializeSchema, context: &context)
        case .stop, .start, .resetSyncData:
            // The profile does not list these statements, so the validator refuses them
            // (MIR-24: SwiftData offers no such call); should one arrive anyway, nothing runs.
            effects.append(.trace(kind: "app-call.unsupported", details: [
                TraceField("call", .string(call.statement)),
            ], rules: ["MIR-24"]))
            if let waiter { effects.append(.completed(waiter)) }
        }
    }

    /// The store vanished or was rebuilt: Core Data's mirroring metadata lived in it, so
    /// everything known about iCloud is gone with it; a fresh setup and import follow, and
    /// every object still in the store is exported as a new record.
    private func storeReplaced(context: inout MirrorContext) {
        let account = context.syncData.userRecordName
        context.syncData.forgetCloud(through: context.store.lastHistoryPosition)
        context.syncData.userRecordName = account
        context.syncData.reexport = synchronizedModels(context.store)
        effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
        effects.append(.trace(kind: "store.replaced", details: [
            TraceField("objects", .int(Int64(context.syncData.reexport.count))),
        ], rules: ["MIR-29"]))
        enqueue(.setup, context: &context)
        enqueue(.import, context: &context)
        enqueue(.export, context: &context)
    }

    // MARK: Helpers

    /// The app's zone in the account the device is signed into now (MIR-4).
    func zone(_ context: MirrorContext) -> ZoneID {
        ZoneID(owner: context.account ?? "", name: MirrorCodec.zoneName)
    }

    /// The mirrored entities (`sync none` is outside the CloudKit configuration), in order.
    var mirroredEntities: [EntityDescription] {
        schema.entities.filter(\.isSynchronized)
    }

    func isMirrored(_ entity: String) -> Bool {
        schema.entity(named: entity)?.isSynchronized ?? false
    }

    /// Every object of a mirrored entity, sorted.
    func synchronizedModels(_ store: Store) -> [ModelID] {
        mirroredEntities.flatMap { store.models(of: $0.name).map(\.id) }.sorted()
    }

    /// Writes the store and the metadata together (Core Data keeps both in one file).
    func writeAll(_ context: MirrorContext) {
        effects.append(context.writeAll)
    }
}
