import CKSyncEngineSim
import CloudSim
import Kernel
import LocalStore
import SyncContract

/// The context `outbox` handles events in: its sync data is `OutboxSyncData`.
public typealias OutboxContext = EngineContext<OutboxSyncData>

/// The `outbox` engine: markbattistella/SwiftDataSync (seed 001) with its reference adapter,
/// as docs/OUTBOX.md specifies it, on the simulated CKSyncEngine: a durable outbox written
/// with every save, two CKSyncEngines (private, shared), one zone per collection,
/// zone-wide shares. A deterministic state machine.
///
/// The CKSyncEngine layer delivers its delegate's events synchronously inside each call;
/// the engine keeps the event's context in `working` while it does, so the delegate
/// callbacks read and change the same working copies of the disk. One event's effects
/// gather in `effects`; a delegate callback gathers its own there meanwhile and hands them
/// to its CKSyncEngine, which returns them in its order.
///
/// Invariants the world keeps, trapped when broken: each probe point passed gets one
/// `.resume` (with the ticket `.sole`), so no more come than were passed; a timer fires only
/// for the CKSyncEngine that armed it (the adapter arms none). Ignored on purpose: an
/// answer no request awaits (a killed incarnation's request that reached the cloud after
/// the kill is answered to this one) and a timer of a shared engine deactivated since.
public final class OutboxEngine: SyncEngine, CKSyncEngineDelegate {
    public typealias SyncData = OutboxSyncData

    public static let name = "outbox"
    /// The store author of the adapter's own saves (fetched changes, conflicts): never
    /// recorded in the outbox (OBX-7).
    public static let author = "outbox"
    /// OBX-2: the zone of collection `main`.
    public static let mainZoneName = "Main"
    public static let mainCollection = "main"
    /// OBX-2: the zone of a sharable root's collection.
    public static func zoneName(ofCollection collection: String) -> String {
        collection == mainCollection ? mainZoneName : "Collection-" + collection
    }

    let schema: Schema
    let recordingSchema: Schema
    let pageSize: Int

    // MARK: Memory (lost on kill)

    // The engine's lifetime (this incarnation).
    var autosync = true
    var historyPosition: Int64 = 0
    var privateEngine: CKSyncEngine?
    var sharedEngine: CKSyncEngine?
    /// The working context while a call into a CKSyncEngine delivers events.
    var working: OutboxContext?
    var launchWaiter: WaiterID?
    var syncWaiters: [WaiterID] = []
    /// Sync Now's steps still to run (OBX-9: send, then fetch private, then shared).
    var syncSteps: [SyncStep] = []
    /// Zones a send saved since the private database's last fetch ended (OBX-DR-6).
    var zonesSavedSinceFetch: [ZoneID] = []
    /// Records a send saved since then: a fetch that brings them back brings no news.
    var recordsSavedSinceZoneSave: Set<String> = []
    /// When each zone's last fetch with a change token ended: every model of it this device
    /// held and the fetch did not report deleted was there then (OBX-DR-7).
    var zoneFetchedWithToken: [ZoneID: SimTime] = [:]
    /// Records whose last known version this device's own save made (OBX-DR-7).
    var uploadedHere: Set<String> = []
    /// Account checks carry a number; stale answers are dropped (OBX-27).
    var accountCheckNumber = 0
    /// The account status the adapter last acted on.
    var accountUnavailable = false
    var signedOut = false
    var isOnline = true
    /// An adoption check of the shared database is in flight (OBX-29): the adapter's own
    /// request, of no CKSyncEngine.
    var adoptionRequest: RequestID?
    var nextOwnRequest: UInt64 = 900_000_000
    /// The private engine's first fetch of this launch ended (the launch waiter).
    var launchFetched = false
    /// Inside a CKSyncEngine delegate callback (no call into an engine may happen, OBXW-12).
    var inDelegate = false
    /// The probe points passed so far and the `.resume`s received: each probe point gets one,
    /// in order (docs/ENGINE-CONTRACT.md), so a paused page or send goes on at its probe's
    /// resume.
    var probesPassed = 0
    var resumesReceived = 0
    /// The effects of the event being handled, in order (empty between events); a delegate
    /// callback gathers its own here meanwhile, for its CKSyncEngine to hand back in order.
    var effects: [EngineEffect] = []

    // Each CKSyncEngine instance's own: its operation, and the operation's state.
    var privateOperation = ScopeOperation()
    var sharedOperation = ScopeOperation()

    enum SyncStep: Hashable {
        case send
        case fetchPrivate
        case fetchShared
    }

    public init(schema: Schema, recordingSchema: Schema, pageSize: Int = 100) {
        self.schema = schema
        self.recordingSchema = recordingSchema
        self.pageSize = pageSize
    }

    // MARK: SyncEngine

    public var state: EngineState {
        if signedOut { return .signedOut }
        if accountUnavailable { return EngineState("waiting", "account") }
        if !isOnline { return EngineState("waiting", "network") }
        if let reason = lastRejectionReason { return EngineState("error", reason) }
        if isRunningOperation || (privateEngine?.isBusy ?? false)
           || (sharedEngine?.isBusy ?? false) {
            return .syncing
        }
        if privateOperation.waitingForRetry || sharedOperation.waitingForRetry {
            return EngineState("waiting", "retryAfter")
        }
        return .idle
    }

    /// Mirrors the persisted `lastRejectionReason` (read by `state`).
    var lastRejectionReason: String?

    public func isIdle(now: SimTime) -> Bool {
        !(privateEngine?.isBusy ?? false) && !(sharedEngine?.isBusy ?? false)
            && adoptionRequest == nil
            && syncSteps.isEmpty
    }

    public func setAutosync(_ enabled: Bool) {
        autosync = enabled
    }

    public func handle(_ event: EngineEvent, context: inout OutboxContext) -> [EngineEffect] {
        working = context
        isOnline = context.isOnline
        switch event {
        case .launch(let waiter):
            launch(waiter: waiter)
        case .storeSaved:
            storeSaved()
        case .push:
            pushed()
        case .timer(let timer):
            timerFired(timer)
        case .response(let id, let response):
            answered(id, response)
        case .resume(let ticket):
            resumed(ticket)
        case .appCall(let call, let waiter):
            appCall(call, waiter: waiter)
        case .storeReplaced:
            storeReplaced()
        case .observerAttached:
            effects.append(.trace(kind: "observer.attached", details: [
                TraceField("note",
                    .string("models saved meanwhile have no outbox row: uploaded once edited")),
            ], rules: ["OBX-4"]))
            historyPosition = working?.store.lastHistoryPosition ?? historyPosition
        case .accountChanged:
            accountChanged()
        case .networkChanged(let online):
            networkChanged(online: online)
        }
        // Effects the engines gathered outside their own entry points (the app's `state.add`
        // from inside another engine's callback), then the Sync Now steps and waiters.
        for engine in [privateEngine, sharedEngine].compactMap({ $0 }) {
            take(engine.takeEffects())
        }
        if !syncSteps.isEmpty { runSyncSteps() }
        activateSharedEngineIfNeeded()
        finishWaitersIfIdle()
        if let result = working { context = result }
        working = nil
        var taken: [EngineEffect] = []
        swap(&taken, &effects)
        return countProbes(taken)
    }

    /// Probe points are passed in line, but a paused page or send waits for its own resume.
    /// The world resumes each probe point once, for the incarnation that passed it.
    private func resumed(_ ticket: ProbeTicket) {
        precondition(ticket == .sole, "outbox: resumed \(ticket), but it passes `.sole` only")
        precondition(resumesReceived < probesPassed,
            "outbox: resumed with no probe point passed and not resumed")
        resumesReceived += 1
        resumePausedEvents()
    }

    /// A trace kind no trace carries: put right after the probe point a paused event waits
    /// for, it marks that probe in the effects, and is removed before they leave.
    static let pauseMarker = "outbox.pause-marker"

    /// Counts the probe points the world will pass and resume, and gives each paused event
    /// the number of its probe point's resume (the probe just before its marker); returns the
    /// effects without the markers.
    private func countProbes(_ effects: [EngineEffect]) -> [EngineEffect] {
        var marked = false
        for effect in effects {
            switch effect {
            case .probe:
                probesPassed += 1
            case .trace(let kind, let details, _) where kind == Self.pauseMarker:
                marked = true
                markPause(scope: Self.scope(of: details), resumeAt: probesPassed)
            default:
                break
            }
        }
        guard marked else { return effects }
        return effects.filter {
            if case .trace(let kind, _, _) = $0 { return kind != Self.pauseMarker }
            return true
        }
    }

    // MARK: Helpers

    var data: OutboxSyncData {
        get { working?.syncData ?? OutboxSyncData() }
        set { working?.syncData = newValue }
    }

    var store: Store {
        get {
            guard let working else { preconditionFailure("outbox: no working context") }
            return working.store
        }
        set { working?.store = newValue }
    }

    var account: String? { working?.account }

    /// A write of the store and sync data together (atomically).
    func writeAll() {
        guard let working else { return }
        effects.append(working.writeAll)
    }

    func writeSyncData() {
        guard let working else { return }
        effects.append(.write(DiskWrite(syncData: SyncDataBox(working.syncData))))
    }

    func trace(
        _ kind: String, _ details: [TraceField], _ rules: [String]
    ) {
        effects.append(.trace(kind: kind, details: details, rules: rules))
    }

    func engine(for scope: DatabaseScope) -> CKSyncEngine? {
        scope == .privateDatabase ? privateEngine : sharedEngine
    }

    func engine(for role: TrackedZone.Role) -> CKSyncEngine? {
        role == .owner ? privateEngine : sharedEngine
    }

    /// Takes the effects a change of an engine's state caused, unless inside a callback (the
    /// engine then keeps them in its order, and they are taken when the call returns).
    func flush(_ engine: CKSyncEngine) {
        guard !inDelegate else { return }
        take(engine.takeEffects())
    }

    /// Takes a CKSyncEngine call's effects, passing `upload.sent` as each modify request leaves.
    func take(_ engineEffects: [EngineEffect]) {
        for effect in engineEffects {
            effects.append(effect)
            switch effect {
            case .send(_, let request):
                switch request {
                case .modifyRecords, .modifyZones:
                    effects.append(.probe("upload.sent"))
                case .fetchZoneChanges(let scope, let zone, let token, _) where token == nil:
                    // A fetch from scratch brings no deletions (OBX-24, OBXW-10).
                    fetch(scope).tokenExpired = true
                    fetch(scope).zonesFromScratch.insert(zone)
                default:
                    break
                }
            case .trace(let kind, let details, _) where kind == "cksync.token-expired":
                fetch(Self.scope(of: details)).tokenExpired = true
                effects.append(.trace(kind: "token.expired", details: details + [
                    TraceField("note",
                        .string("handled inside CKSyncEngine: fetched again from scratch")),
                ], rules: ["OBX-24"]))
            case .setTimer(let timer, _) where timer.rawValue.hasSuffix(".retry-send")
                || timer.rawValue.hasSuffix(".retry-fetch"):
                if let scope = Self.scope(of: timer) {
                    withOperation(scope) { $0.waitingForRetry = true }
                }
            default:
                break
            }
        }
    }

    /// The synchronized entity of a name, in what this process synchronizes.
    func entity(_ name: String) -> EntityDescription? {
        guard let entity = schema.entity(named: name), entity.isSynchronized else { return nil }
        return entity
    }
}
