import CloudSim
import Kernel
import SyncContract

/// A simulated `CKSyncEngine` for one database: a deterministic state machine between an
/// engine (its delegate) and CloudSim. It never runs anything by itself: every entry point
/// (`fetchChanges`, `sendChanges`, `handleResponse`, `handleTimer`, `handlePush`,
/// `accountChanged`, `takeEffects`) delivers the delegate's events synchronously, in Apple's
/// order, and returns the effects to carry out — requests to send and timers to set — in
/// the order they arose, the delegate's own effects (`append`) among them.
/// docs/CKSYNCENGINE.md describes the API, the event order and its sources.
public final class CKSyncEngine {
    /// `CKSyncEngine.Configuration`.
    public struct Configuration {
        public var database: DatabaseScope
        /// The last serialization the app persisted; nil on a first run.
        public var stateSerialization: State.Serialization?
        public weak var delegate: CKSyncEngineDelegate?
        /// Sends after additions and fetches after pushes by themselves (the default).
        public var automaticallySync: Bool
        /// Prefix of this instance's timer names (two instances on a device need two).
        public var timerPrefix: String
        /// This instance's request IDs start after this number (keep instances apart).
        public var firstRequestNumber: UInt64
        /// `resultsLimit` of a zone fetch page (≤ 0: the cloud's default).
        public var fetchResultsLimit: Int
        /// A send ends after a batch in which an item failed, as Apple's engine does (its
        /// sample's tests expect the change the delegate adds back to stay pending); false
        /// keeps asking for batches, the rule the outbox engine was written against.
        public var endsSendAfterFailedItems: Bool
        /// Whether the device has a network, for a scheduler that holds automatic operations
        /// until it returns, as Apple's does; nil sends them and lets them fail with
        /// `networkUnavailable`, the rule the outbox engine was written against (OBX-8).
        public var isNetworkAvailable: (() -> Bool)?

        public init(
            database: DatabaseScope,
            stateSerialization: State.Serialization?,
            delegate: CKSyncEngineDelegate,
            automaticallySync: Bool = true,
            timerPrefix: String? = nil,
            firstRequestNumber: UInt64 = 0,
            fetchResultsLimit: Int = 0,
            endsSendAfterFailedItems: Bool = false,
            isNetworkAvailable: (() -> Bool)? = nil
        ) {
            self.database = database
            self.stateSerialization = stateSerialization
            self.delegate = delegate
            self.automaticallySync = automaticallySync
            self.timerPrefix = timerPrefix ?? "cksync.\(database.rawValue)"
            self.firstRequestNumber = firstRequestNumber
            self.fetchResultsLimit = fetchResultsLimit
            self.endsSendAfterFailedItems = endsSendAfterFailedItems
            self.isNetworkAvailable = isNetworkAvailable
        }
    }

    /// The system scheduler's delay before an automatic send or fetch (a choice: Apple
    /// documents "shortly", not a number).
    public static let schedulerDelay = SimTime.seconds(1)
    /// How long `stateUpdate`s caused by the app's own state changes are coalesced.
    public static let stateUpdateCoalescing = SimTime.milliseconds(100)
    /// Backoff of a retryable error that carries no retry-after: 1 s, doubling, at most 5 min
    /// (OBX-19: 1 s, 2 s, 4 s … up to 5 min, as in the sds choice).
    public static func backoff(attempt: Int) -> SimTime {
        .seconds(Int64(min(300, 1 << min(attempt, 9))))
    }
    /// The probe point passed just before an event reaches the delegate: `cksync.EVENT`.
    /// The host engine lists those it offers among its profile's probe points and answers the
    /// `.resume` that follows each by doing nothing (the layer never stops at a probe).
    public static func probePoint(of eventName: String) -> String { "cksync." + eventName }

    /// Every probe point, in the order a first fetch and a send pass them.
    public static let probePoints: [String] = [
        "accountChange", "willFetchChanges", "fetchedDatabaseChanges", "willFetchRecordZoneChanges",
        "fetchedRecordZoneChanges", "didFetchRecordZoneChanges", "didFetchChanges",
        "willSendChanges",
        "sentDatabaseChanges", "sentRecordZoneChanges", "didSendChanges", "stateUpdate",
    ].map(probePoint(of:))

    /// At most this many batches per send operation (a bound; Apple's is not documented).
    public static let maximumBatchesPerSend = 1_000

    public let database: DatabaseScope
    public let state: State
    public let automaticallySync: Bool
    weak var delegate: CKSyncEngineDelegate?
    let fetchResultsLimit: Int
    let endsSendAfterFailedItems: Bool
    let isNetworkAvailable: (() -> Bool)?
    /// Automatic operations the scheduler holds until the network returns, in order.
    var heldForNetwork: [OperationKind] = []

    let sendTimer: EngineTimer
    let fetchTimer: EngineTimer
    let retrySendTimer: EngineTimer
    let retryFetchTimer: EngineTimer
    let stateUpdateTimer: EngineTimer

    var effects: [EngineEffect] = []
    var inCallback = false
    var nextRequestNumber: UInt64
    var sendScheduled = false
    var fetchScheduled = false
    var stateUpdateArmed = false
    var stateDirty = false
    var retryAttempts: [OperationKind: Int] = [:]
    /// The delegate asked, inside its `handleEvent`, to finish the event later.
    var completionDeferredByDelegate = false
    /// What the engine does once the delegate finishes a deferred event, and the events that
    /// arose meanwhile (delivered first).
    var deferredCompletion: DeferredCompletion?
    var heldEvents: [Event] = []
    /// A failed fetch waits for its retry timer (`networkReturned()` runs it at once).
    public internal(set) var fetchRetryPending = false
    /// The error the last fetch operation failed with (nil while none ended, or when the last
    /// ended without an operation-level error): what a host waiting for a first fetch reads.
    public internal(set) var lastFetchFailure: CloudError?
    /// The same for sends: the error a whole send operation failed with (items that failed
    /// alone are in `sentRecordZoneChanges`).
    public internal(set) var lastSendFailure: CloudError?
    /// The account must be checked before the next operation (at launch, after a change).
    var needsAccountCheck = true
    /// Signed out: dormant until `accountChanged()`.
    var dormant = false

    var current: Run?
    var queued: [Queued] = []

    /// Creates the engine; a first run (nil serialization) or restored state. With
    /// `automaticallySync`, it schedules a fetch (and a send when changes are pending); take
    /// those effects with `takeEffects()`.
    public init(_ configuration: Configuration) {
        database = configuration.database
        delegate = configuration.delegate
        automaticallySync = configuration.automaticallySync
        fetchResultsLimit = configuration.fetchResultsLimit
        endsSendAfterFailedItems = configuration.endsSendAfterFailedItems
        isNetworkAvailable = configuration.isNetworkAvailable
        nextRequestNumber = configuration.firstRequestNumber
        let prefix = configuration.timerPrefix
        sendTimer = EngineTimer(prefix + ".send")
        fetchTimer = EngineTimer(prefix + ".fetch")
        retrySendTimer = EngineTimer(prefix + ".retry-send")
        retryFetchTimer = EngineTimer(prefix + ".retry-fetch")
        stateUpdateTimer = EngineTimer(prefix + ".state-update")
        state = State(configuration.stateSerialization)
        state.onChange = { [unowned self] added in self.stateChangedByApp(added: added) }
        if automaticallySync {
            scheduleFetch()
            if !state.pendingDatabaseChanges.isEmpty || !state.pendingRecordZoneChanges.isEmpty
                || state.hasPendingUntrackedChanges {
                scheduleSend()
            }
        }
    }

    // MARK: Entry points

    /// `fetchChanges()`: a manual fetch (after the one running, if any).
    public func fetchChanges(
        _ options: FetchChangesOptions = FetchChangesOptions()
    ) -> [EngineEffect] {
        enter("fetchChanges()")
        request(.fetch, reason: .manual, fetchOptions: options, sendOptions: SendChangesOptions())
        return takeEffects()
    }

    /// `sendChanges()`: a manual send (after the operation running, if any).
    public func sendChanges(
        _ options: SendChangesOptions = SendChangesOptions()
    ) -> [EngineEffect] {
        enter("sendChanges()")
        request(.send, reason: .manual, fetchOptions: FetchChangesOptions(), sendOptions: options)
        return takeEffects()
    }

    /// `cancelOperations()`: the operations waiting behind the running one are dropped; the
    /// running one may still complete (Apple: cancellation is processed asynchronously).
    public func cancelPendingOperations() -> [EngineEffect] {
        enter("cancelOperations()")
        if !queued.isEmpty {
            effects.append(.trace(kind: "cksync.cancelled", details: [
                TraceField("operations",
                    .string(queued.map(\.kind.rawValue).joined(separator: ","))),
            ], rules: []))
            queued = []
        }
        return takeEffects()
    }

    /// The network came back: the system scheduler runs the automatic operations it held for
    /// the network, and a fetch waiting for its retry at once instead of at the end of its
    /// backoff (OBX-9: "a fetch runs only when a push arrives or one was already due").
    public func networkReturned() -> [EngineEffect] {
        enter("networkReturned()")
        var kinds = heldForNetwork
        heldForNetwork = []
        if fetchRetryPending {
            fetchRetryPending = false
            effects.append(.cancelTimer(retryFetchTimer))
            if !kinds.contains(.fetch) { kinds.insert(.fetch, at: 0) }
        }
        for kind in kinds {
            request(kind, reason: .scheduled, fetchOptions: FetchChangesOptions(),
                    sendOptions: SendChangesOptions())
        }
        return takeEffects()
    }

    /// A silent push of this database's subscription arrived: an automatic fetch soon.
    public func handlePush() -> [EngineEffect] {
        enter("handlePush()")
        if automaticallySync { scheduleFetch() }
        return takeEffects()
    }

    /// `CKAccountChanged`: the account is checked before the next operation (a dormant engine
    /// wakes up); with `automaticallySync` a fetch is scheduled to do it.
    public func accountChanged() -> [EngineEffect] {
        enter("accountChanged()")
        needsAccountCheck = true
        current?.accountChanged = true
        dormant = false
        if automaticallySync { scheduleFetch() }
        return takeEffects()
    }

    /// An answer to a request this engine sent; nil when the request is not this engine's.
    public func handleResponse(_ id: RequestID, _ response: CloudResponse) -> [EngineEffect]? {
        guard let run = current, run.awaiting == id else { return nil }
        enter("handleResponse(_:_:)")
        current?.awaiting = nil
        received(response, step: run.step)
        return takeEffects()
    }

    /// A timer fired; nil when it is not one of this engine's.
    public func handleTimer(_ timer: EngineTimer) -> [EngineEffect]? {
        let none = FetchChangesOptions()
        let all = SendChangesOptions()
        switch timer {
        case sendTimer:
            enter("handleTimer(_:)")
            sendScheduled = false
            if holdsForNetwork(.send) { break }
            request(.send, reason: .scheduled, fetchOptions: none, sendOptions: all)
        case fetchTimer:
            enter("handleTimer(_:)")
            fetchScheduled = false
            if holdsForNetwork(.fetch) { break }
            request(.fetch, reason: .scheduled, fetchOptions: none, sendOptions: all)
        case retrySendTimer:
            enter("handleTimer(_:)")
            if holdsForNetwork(.send) { break }
            request(.send, reason: .scheduled, fetchOptions: none, sendOptions: all)
        case retryFetchTimer:
            enter("handleTimer(_:)")
            fetchRetryPending = false
            if holdsForNetwork(.fetch) { break }
            request(.fetch, reason: .scheduled, fetchOptions: none, sendOptions: all)
        case stateUpdateTimer:
            enter("handleTimer(_:)")
            stateUpdateArmed = false
            // While a page waits for the delegate, its token must not be persisted yet: the
            // page's own `stateUpdate` follows when the delegate is done.
            if stateDirty && deferredCompletion == nil { deliverStateUpdate() }
        default:
            return nil
        }
        return takeEffects()
    }

    /// The effects that arose outside an entry point (the app's `state.add`, the init).
    public func takeEffects() -> [EngineEffect] {
        let taken = effects
        effects = []
        return taken
    }

    /// Effects the delegate wants carried out at this point of the order (its disk writes,
    /// e.g. persisting a `stateUpdate`), kept in order with the engine's requests.
    public func append(_ delegateEffects: [EngineEffect]) {
        effects.append(contentsOf: delegateEffects)
    }

    /// Whether an operation runs or one is queued.
    public var isBusy: Bool { current != nil || !queued.isEmpty }

    /// Whether the running fetch started the database's feed again from scratch after its
    /// token expired: zones deleted meanwhile are not reported.
    public var fetchResetDatabaseToken: Bool { current?.databaseTokenReset ?? false }

    /// Whether the running fetch fetches `zone` again from scratch after its token expired:
    /// records deleted meanwhile are not reported.
    public func fetchResetToken(of zone: ZoneID) -> Bool {
        current?.zoneTokensReset.contains(zone) ?? false
    }

    // MARK: Internals shared by the operations

    func enter(_ call: String) {
        precondition(
            !inCallback,
            "CKSyncEngine: \(call) called from inside a delegate callback (events are delivered "
                + "serially)")
    }

    func deliver(_ event: Event) {
        guard let delegate else { preconditionFailure("CKSyncEngine: its delegate is gone") }
        if deferredCompletion != nil {
            // Events are delivered serially: one that arises while the delegate still handles
            // a page waits until it is done (`completeDeferredEvent()`).
            heldEvents.append(event)
            return
        }
        effects.append(.trace(kind: "cksync.event", details: eventDetails(event), rules: []))
        // A kill point before the delegate handles the event (and writes what it covers).
        effects.append(.probe(Self.probePoint(of: event.name)))
        inCallback = true
        delegate.handleEvent(event, syncEngine: self)
        inCallback = false
        if completionDeferredByDelegate {
            switch event {
            case .fetchedRecordZoneChanges, .willSendChanges:
                return  // the caller keeps the rest for `completeDeferredEvent()`
            default:
                preconditionFailure(
                    "CKSyncEngine: only fetchedRecordZoneChanges and willSendChanges can be "
                        + "deferred")
            }
        }
    }

    /// Called by the delegate from inside its `handleEvent` of a `fetchedRecordZoneChanges` or
    /// a `willSendChanges`: its handling goes on after the call returns (Apple's `handleEvent`
    /// is `async`, and the engine awaits it). The engine delivers nothing more, and goes on
    /// with the fetch (or builds the send's first batch), only when the delegate calls
    /// `completeDeferredEvent()`. A host that passes a probe point there (outbox:
    /// `download.page.fetched`, `upload.start`) uses it, so that what the app does at that
    /// point happens before the page is applied, or before the batch is built.
    public func deferEventCompletion() {
        precondition(inCallback, "CKSyncEngine: deferEventCompletion() outside handleEvent")
        completionDeferredByDelegate = true
    }

    /// The delegate is done with the event whose handling it deferred: the events held
    /// meanwhile are delivered, then the engine goes on (a page: the `stateUpdate` carrying its
    /// token, the next page or zone; `willSendChanges`: the batches). Nothing when no handling
    /// was deferred.
    public func completeDeferredEvent() -> [EngineEffect] {
        enter("completeDeferredEvent()")
        guard let pending = deferredCompletion else { return takeEffects() }
        deferredCompletion = nil
        let held = heldEvents
        heldEvents = []
        for event in held { deliver(event) }
        switch pending {
        case .zonePage(let zone, let moreComing):
            finishZonePage(zone, moreComing: moreComing)
        case .willSend:
            sendDatabaseChanges()
        }
        return takeEffects()
    }

    /// Whether the delegate still handles an event whose handling it deferred.
    public var isWaitingForDelegate: Bool { deferredCompletion != nil }

    func askForBatch(_ context: SendChangesContext) -> RecordZoneChangeBatch? {
        guard let delegate else { preconditionFailure("CKSyncEngine: its delegate is gone") }
        inCallback = true
        let batch = delegate.nextRecordZoneChangeBatch(context, syncEngine: self)
        inCallback = false
        return batch
    }

    func eventDetails(_ event: Event) -> [TraceField] {
        var details = [TraceField("database", .string(database.rawValue)),
            TraceField("event", .string(event.name))]
        switch event {
        case .willFetchRecordZoneChanges(let zone):
            details.append(TraceField("zone", .string(zone.description)))
        case .didFetchRecordZoneChanges(let zone, let error):
            details.append(TraceField("zone", .string(zone.description)))
            if let error { details.append(TraceField("error", .string(error.code.description))) }
        case .fetchedRecordZoneChanges(let changes):
            details.append(TraceField("modifications", .int(Int64(changes.modifications.count))))
            details.append(TraceField("deletions", .int(Int64(changes.deletions.count))))
        case .sentRecordZoneChanges(let sent):
            details.append(TraceField("saved", .int(Int64(sent.savedRecords.count))))
            details.append(TraceField("failedSaves", .int(Int64(sent.failedRecordSaves.count))))
            details.append(TraceField("deleted", .int(Int64(sent.deletedRecordIDs.count))))
            details.append(TraceField("failedDeletes", .int(Int64(sent.failedRecordDeletes.count))))
        default:
            break
        }
        return details
    }

    func makeRequestID() -> RequestID {
        nextRequestNumber += 1
        return RequestID(nextRequestNumber)
    }

    func send(_ request: CloudRequest, step: Step) {
        let id = makeRequestID()
        current?.awaiting = id
        current?.step = step
        effects.append(.send(id, request))
    }

    func stateChangedByApp(added: Bool) {
        stateDirty = true
        if !stateUpdateArmed {
            stateUpdateArmed = true
            effects.append(.setTimer(stateUpdateTimer, after: Self.stateUpdateCoalescing))
        }
        if added && automaticallySync { scheduleSend() }
    }

    /// A `stateUpdate` now; it covers any coalesced one.
    func deliverStateUpdate() {
        stateDirty = false
        if stateUpdateArmed {
            stateUpdateArmed = false
            effects.append(.cancelTimer(stateUpdateTimer))
        }
        deliver(.stateUpdate(StateUpdate(stateSerialization: state.serialization)))
    }

    /// Whether the scheduler holds this automatic operation until the network returns (only
    /// with `isNetworkAvailable`, and only while it says no).
    func holdsForNetwork(_ kind: OperationKind) -> Bool {
        guard let isNetworkAvailable, !isNetworkAvailable() else { return false }
        if !heldForNetwork.contains(kind) { heldForNetwork.append(kind) }
        effects.append(.trace(kind: "cksync.waiting-for-network", details: [
            TraceField("database", .string(database.rawValue)),
            TraceField("operation", .string(kind.rawValue)),
        ], rules: []))
        return true
    }

    func scheduleSend() {
        guard !sendScheduled else { return }
        sendScheduled = true
        effects.append(.setTimer(sendTimer, after: Self.schedulerDelay))
    }

    func scheduleFetch() {
        guard !fetchScheduled else { return }
        fetchScheduled = true
        effects.append(.setTimer(fetchTimer, after: Self.schedulerDelay))
    }

    func scheduleRetry(_ kind: OperationKind, after error: CloudError) {
        let attempt = retryAttempts[kind, default: 0]
        retryAttempts[kind] = attempt + 1
        let delay = error.retryAfter ?? Self.backoff(attempt: attempt)
        effects.append(.trace(kind: "cksync.retry", details: [
            TraceField("database", .string(database.rawValue)),
            TraceField("operation", .string(kind.rawValue)),
            TraceField("error", .string(error.code.description)),
            TraceField("after", .int(delay.microseconds)),
        ], rules: []))
        if kind == .fetch { fetchRetryPending = true }
        effects.append(.setTimer(kind == .send ? retrySendTimer : retryFetchTimer, after: delay))
    }
}
