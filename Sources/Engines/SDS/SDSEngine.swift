import CloudSim
import Kernel
import LocalStore

/// The `sds` engine: SwiftDataSync's rules (RULES.md) as a deterministic state machine.
///
/// Its memory (the running synchronization, requests in flight, timers it set) is lost on a
/// kill; everything it must keep lives in `SDSSyncData` on the device's disk.
public final class SDSEngine: SyncEngine {
    public static let name = "sds"
    /// The store author the engine saves downloaded changes as, so it never records them.
    public static let author = "sds"
    /// SYNC-1's short debounce between a save and the synchronization it starts.
    public static let debounceDelay = SimTime.milliseconds(500)
    /// The largest back-off between retries after transient errors without a retry-after.
    public static let maxBackoff = SimTime.minutes(5)

    public static let probePoints = [
        "sync.start", "download.start", "download.page.fetched", "download.page.stored",
        "download.page.saved", "download.done", "upload.start", "upload.sent", "upload.done",
        "sync.done",
    ]

    let schema: Schema
    let zoneName: String
    let pageSize: Int

    // MARK: Memory (lost on kill)

    var launched = false
    var accountChecked = false
    var stopped = false
    var autosync = true
    var nextRequestNumber: UInt64 = 0
    var run: SyncRun?
    /// Another synchronization was asked for while one ran (or while it could not run).
    var wantsSync = false
    var waitersForNextRun: [WaiterID] = []
    var debounceScheduled = false
    var retryScheduled = false
    var backoffFailures = 0
    var lastError: CloudError?
    var waitingForNetwork = false

    public init(schema: Schema, zoneName: String = "SwiftDataSync", pageSize: Int = 100) {
        self.schema = schema
        self.zoneName = zoneName
        self.pageSize = pageSize
    }

    // MARK: SyncEngine

    public var state: EngineState {
        if !launched { return .notRunning }
        if stopped { return .stopped }
        if run != nil { return .syncing }
        if retryScheduled { return EngineState("waiting", "retryAfter") }
        if waitingForNetwork { return EngineState("waiting", "network") }
        return .idle
    }

    public func isIdle(now: SimTime) -> Bool { run == nil }

    /// `autosync off` / `on`: whether saves and pushes start synchronizations.
    public func setAutosync(_ enabled: Bool) {
        autosync = enabled
    }

    /// Whether the account was checked since launch (HDO-2).
    public var hasCheckedAccount: Bool { accountChecked }

    public func handle(_ event: EngineEvent, context: inout EngineContext) -> [EngineEffect] {
        var effects: [EngineEffect] = []
        switch event {
        case .launch(let waiter):
            handleLaunch(waiter: waiter, context: &context, effects: &effects)
        case .storeSaved:
            recordLocalChanges(context: &context, effects: &effects)
            if autosync && !stopped && !debounceScheduled {
                debounceScheduled = true
                effects.append(.setTimer(.debounce, after: Self.debounceDelay))
            }
        case .push:
            effects.append(.trace(kind: "push.received", details: [], rules: []))
            if autosync { requestSync(waiter: nil, context: &context, effects: &effects) }
        case .timer(let timer):
            handleTimer(timer, context: &context, effects: &effects)
        case .response(let id, let response):
            handleResponse(id, response, context: &context, effects: &effects)
        case .resume:
            run?.awaitingResume = false
            advance(context: &context, effects: &effects)
        case .syncNow(let waiter):
            requestSync(waiter: waiter, context: &context, effects: &effects)
        case .stop:
            stopped = true
            effects.append(.trace(kind: "engine.stopped", details: [], rules: ["LIFE-1"]))
        case .start(let waiter):
            stopped = false
            requestSync(waiter: waiter, context: &context, effects: &effects)
        case .resetSyncData, .initializeSchema:
            preconditionFailure("the world refuses these actions before the engine sees them")
        case .accountChanged:
            accountChecked = false
            requestSync(waiter: nil, context: &context, effects: &effects)
        case .networkChanged(let online):
            if online && (waitingForNetwork || wantsSync) {
                waitingForNetwork = false
                requestSync(waiter: nil, context: &context, effects: &effects)
            }
        }
        return effects
    }

    // MARK: Lifecycle

    private func handleLaunch(
        waiter: WaiterID?,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        launched = true
        accountChecked = false
        recordLocalChanges(context: &context, effects: &effects)
        requestSync(waiter: waiter, context: &context, effects: &effects)
    }

    private func handleTimer(
        _ timer: EngineTimer,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        switch timer {
        case .debounce:
            debounceScheduled = false
            // A synchronization that has not started uploading will upload these changes.
            if let current = run, !current.hasStartedUploading { return }
            requestSync(waiter: nil, context: &context, effects: &effects)
        case .retry:
            retryScheduled = false
            requestSync(waiter: nil, context: &context, effects: &effects)
        case .quotaPause, .rejectedRetry:
            requestSync(waiter: nil, context: &context, effects: &effects)
        }
    }

    /// Starts a synchronization now, or marks one as wanted after the running one.
    func requestSync(waiter: WaiterID?, context: inout EngineContext, effects: inout [EngineEffect]) {
        if let waiter { waitersForNextRun.append(waiter) }
        wantsSync = true
        guard run == nil else { return }
        guard canSync(context: context, effects: &effects) else {
            completeWaiters(waitersForNextRun, effects: &effects)
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
        run = SyncRun(waiters: waitersForNextRun)
        waitersForNextRun = []
        advance(context: &context, effects: &effects)
    }

    private func canSync(context: EngineContext, effects: inout [EngineEffect]) -> Bool {
        if !launched || stopped { return false }
        if context.account == nil {
            effects.append(.trace(kind: "sync.skipped", details: [TraceField("reason", .string("signed out"))], rules: []))
            return false
        }
        if !context.isOnline {
            waitingForNetwork = true
            effects.append(.trace(kind: "sync.skipped", details: [TraceField("reason", .string("offline"))], rules: []))
            return false
        }
        return true
    }

    func completeWaiters(_ waiters: [WaiterID], effects: inout [EngineEffect]) {
        for waiter in waiters { effects.append(.completed(waiter)) }
    }

    func makeRequestID() -> RequestID {
        nextRequestNumber += 1
        return RequestID(nextRequestNumber)
    }

    func appZone(_ context: EngineContext) -> ZoneID {
        ZoneID(owner: context.account ?? "", name: zoneName)
    }
}
