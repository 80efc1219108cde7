import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

/// The context `history` handles events in: its sync data is `HistorySyncData`.
typealias HistoryContext = EngineContext<HistorySyncData>

extension EngineTimer {
    /// HIS-13: the 1 s window of silent pushes.
    static let debounce = EngineTimer("debounce")
    /// HIS-29, HIS-30: the end of a backoff.
    static let backoff = EngineTimer("backoff")
}

/// The `history` engine: the CloudSyncKit of the tutorial (seed 002) as docs/HISTORY.md
/// specifies it, a deterministic state machine.
///
/// Local changes come from the store's persistent history after a token (HIS-5); a staged
/// token is persisted only by a successful push (HIS-7); pulls use database and zone change
/// tokens (HIS-22); errors go through the recovery policy table (`HistoryRecovery`).
///
/// Invariants (each traps): one operation runs, with at most one request in flight, and ends
/// with none; a `.resume` (always `.sole`) comes only while it is stopped at a probe point;
/// the debounce fires only while enabled, the backoff only during a pause, no other timer.
/// An answer to a request it never sent (a killed incarnation's) is ignored.
public final class HistoryEngine: SyncEngine {
    public typealias SyncData = HistorySyncData

    public static let name = "history"
    /// HIS-5: the transaction author of the engine's own writes (the loop guard).
    public static let author = "CloudSyncKitSync"
    /// HIS-1: the one zone.
    public static let zoneName = "CloudSyncKit"
    /// HIS-1: the owner name of the user's own records.
    public static let defaultOwner = "__defaultOwner__"
    /// HIS-13: the debounce window of silent pushes.
    public static let debounceWindow = SimTime.seconds(1)

    let schema: Schema
    let pageSize: Int

    // MARK: Memory (lost on kill)

    var autosync = true
    /// `enable()` ran and `disable()` did not (HIS-9, HIS-42).
    var isEnabled = false
    /// HIS-7: the token read by the last push, in memory only.
    var stagedToken: HistoryToken?
    /// The staged token was left by a push that failed (HISW-1).
    var stageLeftByFailure = false
    /// HIS-11.
    var isPushing = false
    var pushPending = false
    /// HIS-12: the backoff pause, and why.
    var pausedFor: HistorySyncError?
    /// HIS-31: the engine marked itself offline.
    var isOffline = false
    /// HIS-32: the last reported error, until a push or pull succeeds.
    var reportedError: HistorySyncError?
    /// The newest save notification handled (HIS-10).
    var seenPosition: Int64 = 0
    var nextRequestNumber: UInt64 = 0
    var nextOperationNumber = 0
    /// One operation at a time, the others queued.
    var runner = StepRunner<HistoryOperation, HistoryOperation>()
    var requestOwners: [RequestID: Int] = [:]
    /// HIS-25: models whose parent record had not arrived, by the parent's record name.
    var missingParents: [(model: ModelID, relationship: String, parent: String)] = []
    /// Records written by a push that then failed (HISW-2).
    var writtenByFailedPush: Set<String> = []
    /// The store as the engine last saw it, for `pending` (the models in unconsumed history).
    var lastStore: Store?
    /// A pull ran to its end with the current account (`downloaded-once`).
    var hasPulledOnce = false
    /// The account last signed in while this incarnation ran (HISW-12).
    var signedInAccount: String?
    /// The effects of the event being handled, appended to by every step; empty between events.
    var effects: [EngineEffect] = []

    public init(schema: Schema, pageSize: Int = 100) {
        self.schema = schema
        self.pageSize = pageSize
    }

    // MARK: SyncEngine

    public var state: EngineState {
        if !isEnabled { return EngineState("disabled") }
        if runner.isBusy { return .syncing }
        if let pausedFor { return EngineState("paused", pausedFor.rawValue) }
        if isOffline { return EngineState("waiting", "network") }
        if let reportedError { return EngineState("error", reportedError.rawValue) }
        return .idle
    }

    public func isIdle(now: SimTime) -> Bool {
        runner.isIdle
    }

    public func setAutosync(_ enabled: Bool) {
        autosync = enabled
    }

    public func handle(_ event: EngineEvent,
        context: inout EngineContext<HistorySyncData>) -> [EngineEffect] {
        lastStore = context.store
        switch event {
        case .launch(let waiter):
            launch(waiter: waiter, context: &context)
        case .storeSaved:
            storeSaved(context: &context)
        case .push:
            silentPush()
        case .timer(let timer):
            timerFired(timer, context: &context)
        case .response(let id, let response):
            answered(id, response, context: &context)
        case .resume(let ticket):
            resume(ticket, context: &context)
        case .appCall(let call, let waiter):
            appCall(call, waiter: waiter, context: &context)
        case .storeReplaced:
            seenPosition = context.store.lastHistoryPosition
            effects.append(.trace(kind: "store.replaced", details: [], rules: ["HIS-5"]))
        case .observerAttached:
            effects.append(.trace(kind: "observer.attached", details: [
                TraceField("note",
                    .string("saves made meanwhile are in the history: the next push sends them")),
            ], rules: ["HIS-5"]))
            seenPosition = context.store.lastHistoryPosition
            push(trigger: "observer", context: &context)
        case .accountChanged:
            effects.append(.trace(kind: "account.change-ignored", details: [
                TraceField("account", context.account.map { .string($0) } ?? .null),
            ], rules: ["HIS-34"]))
            noteUnpushedChangesCarried(context: context)
        case .networkChanged(let online):
            networkChanged(online: online, context: &context)
        }
        lastStore = context.store
        var handled: [EngineEffect] = []
        swap(&handled, &effects)
        return handled
    }

    // MARK: Triggers

    /// HIS-9: `enable()`: setup, a pull, a push; the launch's waiter ends with it.
    private func launch(waiter: WaiterID?, context: inout HistoryContext) {
        seenPosition = context.store.lastHistoryPosition
        signedInAccount = context.account
        let unpushed = unconsumedModels(context.store, after: context.syncData.persistedToken)
        if !unpushed.isEmpty {
            effects.append(.trace(kind: "launch.unpushed-history", details: [
                TraceField("models", .int(Int64(unpushed.count))),
                TraceField("note",
                    .string("the persisted token is before them: pushed after the launch's pull")),
            ], rules: ["HIS-37"]))
        }
        if context.syncData.pullInProgress {
            effects.append(.trace(kind: "launch.pull-interrupted", details: [
                TraceField("note", .string("the pull resumes from the saved zone tokens")),
            ], rules: ["HIS-38"]))
        }
        enable(waiter: waiter, trigger: "launch", context: &context)
    }

    func enable(waiter: WaiterID?, trigger: String, context: inout HistoryContext) {
        isEnabled = true
        effects.append(.trace(kind: "enable", details: [
            TraceField("trigger", .string(trigger)),
        ], rules: ["HIS-9"]))
        let operation = makeOperation(trigger, [.setup, .pull, .push])
        operation.waiter = waiter
        enqueue(operation, context: &context)
    }

    /// HIS-10: every local save (a transaction not by the sync author) calls `push()`.
    private func storeSaved(context: inout HistoryContext) {
        let entries = context.store.history(after: seenPosition)
        seenPosition = context.store.lastHistoryPosition
        guard entries.contains(where: { $0.author != Self.author }) else { return }
        guard autosync else {
            effects.append(.trace(kind: "save.not-pushed", details: [
                TraceField("reason", .string("autosync off")),
            ], rules: []))
            return
        }
        effects.append(.trace(kind: "save.observed", details: [
            TraceField("position", .int(seenPosition)),
        ], rules: ["HIS-10"]))
        push(trigger: "save", context: &context)
    }

    /// HIS-13: each silent push restarts the 1 s window.
    private func silentPush() {
        guard isEnabled, autosync else {
            effects.append(.trace(kind: "push.ignored", details: [
                TraceField("reason", .string(isEnabled ? "autosync off" : "disabled")),
            ], rules: isEnabled ? [] : ["HIS-42"]))
            return
        }
        effects.append(.trace(kind: "push.debounced", details: [
            TraceField("window", .int(Self.debounceWindow.microseconds)),
        ], rules: ["HIS-13"]))
        effects.append(.setTimer(.debounce, after: Self.debounceWindow))
    }

    private func timerFired(_ timer: EngineTimer, context: inout HistoryContext) {
        switch timer {
        case .debounce:
            precondition(isEnabled, "history: the debounce fired after disable() cancelled it")
            // The subscription ID names the scope; the simulated push carries none, so both
            // scopes are pulled (docs/HISTORY.md, HIS-13's choice).
            effects.append(.trace(kind: "debounce.fired", details: [], rules: ["HIS-13"]))
            requestPull(trigger: "push-notification", probe: "history.debounce.fired",
                        context: &context)
        case .backoff:
            guard let reason = pausedFor else {
                preconditionFailure("history: a backoff ended that no pause armed")
            }
            pausedFor = nil
            let rule = reason == .serviceUnavailable ? "HIS-30" : "HIS-29"
            effects.append(.trace(kind: "backoff.end", details: [
                TraceField("reason", .string(reason.rawValue)),
            ], rules: [rule, "HIS-29"]))
            // The first operation after the pause passes `history.backoff.end` right after
            // `sync.start`: the push, or the pull when no push starts (one already runs).
            let pushed = push(trigger: "backoff-end", probe: "history.backoff.end",
                context: &context)
            requestPull(trigger: "backoff-end", probe: pushed ? nil : "history.backoff.end",
                context: &context)
        default:
            preconditionFailure("history: timer '\(timer.rawValue)' was never set")
        }
    }

    /// HIS-14: back online after being offline, the engine pushes, and only pushes.
    private func networkChanged(online: Bool, context: inout HistoryContext) {
        guard online else {
            isOffline = true
            effects.append(.trace(kind: "network.offline", details: [], rules: ["HIS-31"]))
            return
        }
        guard isOffline else { return }
        isOffline = false
        effects.append(.trace(kind: "network.online", details: [
            TraceField("note", .string("one push; no pull")),
        ], rules: ["HIS-14"]))
        guard isEnabled else { return }
        push(trigger: "reconnect", context: &context)
    }

    private func appCall(
        _ call: AppCall, waiter: WaiterID?, context: inout HistoryContext
    ) {
        switch call {
        case .syncNow:
            // HIS-15: a manual refresh pulls, then pushes.
            effects.append(.trace(kind: "sync.requested", details: [], rules: ["HIS-15"]))
            guard isEnabled else {
                effects.append(.trace(kind: "sync.ignored", details: [
                    TraceField("reason", .string("disabled")),
                ], rules: ["HIS-42"]))
                if let waiter { effects.append(.completed(waiter)) }
                return
            }
            if isPulling {
                effects.append(.trace(kind: "pull.not-deduplicated", details: [
                    TraceField("trigger", .string("sync")),
                ], rules: ["HIS-16"]))
            }
            let operation = makeOperation("sync", [.pull, .push])
            operation.waiter = waiter
            enqueue(operation, context: &context)
        case .stop:
            disable()
            if let waiter { effects.append(.completed(waiter)) }
        case .start:
            effects.append(.trace(kind: "start", details: [], rules: ["HIS-42"]))
            enable(waiter: waiter, trigger: "start", context: &context)
        case .resetSyncData, .initializeSchema:
            // The profile does not list them, so the validator refuses them (HIS-42).
            effects.append(.trace(kind: "app-call.unsupported", details: [
                TraceField("call", .string(call.statement)),
            ], rules: ["HIS-42"]))
            if let waiter { effects.append(.completed(waiter)) }
        }
    }

    /// HIS-42: `disable()` cancels the debounce and the backoff and clears the pending flags;
    /// an operation already running ends, queued ones are dropped.
    private func disable() {
        isEnabled = false
        pushPending = false
        pausedFor = nil
        let dropped = runner.dropQueued()
        for operation in dropped { if let waiter = operation.waiter {
            effects.append(.completed(waiter)) }
        }
        // Only the running operation's own push holds the flag now; one whose push phase is
        // still to come takes it there, so the flag must not be left set for it.
        isPushing = runner.running?.holdsPushFlag ?? false
        effects.append(.cancelTimer(.debounce))
        effects.append(.cancelTimer(.backoff))
        effects.append(.trace(kind: "disable", details: [
            TraceField("droppedOperations", .int(Int64(dropped.count))),
        ], rules: ["HIS-42"]))
    }

    // MARK: push() and pulls

    /// `push()` (HIS-11, HIS-12): deduplicated, and nothing while the backoff pause is on.
    /// Returns whether it queued a push operation, which passes `probe` after `sync.start`.
    @discardableResult
    func push(trigger: String, probe: String? = nil, context: inout HistoryContext) -> Bool {
        guard isEnabled else { return false }
        if let pausedFor {
            effects.append(.trace(kind: "push.paused", details: [
                TraceField("trigger", .string(trigger)),
                TraceField("reason", .string(pausedFor.rawValue)),
            ], rules: ["HIS-12"]))
            return false
        }
        if isPushing {
            pushPending = true
            let compensating = runningPushIsCompensating
            effects.append(.trace(kind: "push.deduplicated", details: [
                TraceField("trigger", .string(trigger)),
                TraceField("during", .string(compensating ? "the compensating run" : "a push")),
            ], rules: compensating ? ["HIS-11", "HISW-7"] : ["HIS-11"]))
            return false
        }
        isPushing = true
        let operation = makeOperation(trigger, [.push])
        operation.holdsPushFlag = true
        if let probe { operation.probes.append(probe) }
        enqueue(operation, context: &context)
        return true
    }

    /// A pull runs or is queued (HIS-16).
    var isPulling: Bool {
        runner.containsOperation { $0.phases.contains(.pull) || $0.isInPull }
    }

    /// Whether the push now running (or queued) is HIS-11's compensating run.
    private var runningPushIsCompensating: Bool {
        runner.containsOperation { $0.isCompensating }
    }

    /// A pull of both scopes as an operation of its own (HIS-16: never deduplicated).
    func requestPull(trigger: String, probe: String?, context: inout HistoryContext) {
        if isPulling {
            effects.append(.trace(kind: "pull.not-deduplicated", details: [
                TraceField("trigger", .string(trigger)),
            ], rules: ["HIS-16"]))
        }
        let operation = makeOperation(trigger, [.pull])
        if let probe { operation.probes.append(probe) }
        enqueue(operation, context: &context)
    }

    /// The models of the history after a token whose transactions are not the engine's own
    /// (`pending`: the unconsumed history after the persisted token).
    func unconsumedModels(_ store: Store, after token: HistoryToken?) -> [ModelID] {
        Self.unconsumedModels(store, after: token, schema: schema)
    }

    /// The same read of a store on a disk no engine runs on (`pending` while the device is
    /// killed: the unconsumed history is on disk, so what the next launch pushes is pending,
    /// HIS-37).
    static func unconsumedModels(_ store: Store, after token: HistoryToken?,
        schema: Schema) -> [ModelID] {
        var seen: Set<ModelID> = []
        var models: [ModelID] = []
        for transaction in store.persistentHistory(after: token)
            where transaction.author != Self.author {
            for change in transaction.changes {
                let id: ModelID
                let entityName: String
                switch change {
                case .inserted(let model, let entity): id = model; entityName = entity
                case .updated(let model, let entity, _): id = model; entityName = entity
                case .deleted(let model, let entity, _): id = model; entityName = entity
                }
                guard schema.entity(named: entityName)?.isSynchronized ?? false else { continue }
                if seen.insert(id).inserted { models.append(id) }
            }
        }
        return models
    }

    // MARK: Operations and probe points

    func makeOperation(_ trigger: String, _ phases: [HistoryOperation.Phase]) -> HistoryOperation {
        nextOperationNumber += 1
        return HistoryOperation(number: nextOperationNumber, trigger: trigger, phases: phases)
    }

    func enqueue(_ operation: HistoryOperation, context: inout HistoryContext) {
        runner.enqueue(operation)
        startNext(context: &context)
    }

    /// Starts the next queued operation when none runs: it passes `sync.start` first.
    func startNext(context: inout HistoryContext) {
        guard let operation = runner.takeNext() else { return }
        runner.start(operation)
        effects.append(.trace(kind: "operation.start", details: [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("trigger", .string(operation.trigger)),
            TraceField("phases", .list(operation.phases.map { .string(Self.phaseName($0)) })),
        ], rules: []))
        let extra = operation.probes
        operation.probes = []
        pass(["sync.start"] + extra, then: .nextPhase, operation, context: &context)
    }

    static func phaseName(_ phase: HistoryOperation.Phase) -> String {
        switch phase {
        case .setup: return "setup"
        case .pull: return "pull"
        case .push: return "push"
        case .rebuild(let purge): return purge ? "purge-and-rebuild" : "rebuild-zone"
        }
    }

    /// Passes the probe points one by one (each stops the engine until `.resume`), then runs
    /// `step` (at once when there are none).
    func pass(_ probes: [String], then step: HistoryOperation.Step, _ operation: HistoryOperation,
              context: inout HistoryContext) {
        guard let first = probes.first else {
            run(step, operation, context: &context)
            return
        }
        operation.next = step
        operation.probes = Array(probes.dropFirst())
        operation.isPaused = true
        effects.append(.probe(first))
    }

    /// Goes on after the probe point the running operation paused at.
    private func resume(
        _ ticket: ProbeTicket, context: inout HistoryContext
    ) {
        guard ticket == .sole, let operation = runner.running, operation.isPaused else {
            preconditionFailure("history: resumed with nothing paused")
        }
        if !operation.probes.isEmpty {
            effects.append(.probe(operation.probes.removeFirst()))
            return
        }
        operation.isPaused = false
        let step = operation.next
        operation.next = .wait
        run(step, operation, context: &context)
        if runner.running === operation, !operation.isPaused,
           let answer = operation.bufferedAnswer {
            operation.bufferedAnswer = nil
            handleAnswer(answer, operation, context: &context)
        }
    }

    private func run(_ step: HistoryOperation.Step, _ operation: HistoryOperation,
                     context: inout HistoryContext) {
        switch step {
        case .wait: break
        case .nextPhase: nextPhase(operation, context: &context)
        case .setupNext: setupNext(operation, context: &context)
        case .pullScope: pullScope(operation, context: &context)
        case .fetchDatabase: fetchDatabase(operation, context: &context)
        case .nextZone: nextZone(operation, context: &context)
        case .storePage: storePage(operation, context: &context)
        case .afterPage: afterPage(operation, context: &context)
        case .endScope: endScope(operation, context: &context)
        case .pushNext: pushNext(operation, context: &context)
        case .pushDone: pushDone(operation, context: &context)
        case .finish: finish(operation, context: &context)
        }
    }

    /// The next phase of the operation; the download's and upload's probes of a phase it
    /// lacks are passed back to back, in contract order.
    func nextPhase(_ operation: HistoryOperation, context: inout HistoryContext) {
        guard !operation.phases.isEmpty else {
            var probes: [String] = []
            if !operation.passedDownloadStart { probes += ["download.start", "download.done"] }
            if !operation.passedUploadStart { probes += ["upload.start", "upload.done"] }
            operation.passedDownloadStart = true
            operation.passedUploadStart = true
            pass(probes + ["sync.done"], then: .finish, operation, context: &context)
            return
        }
        switch operation.phases.removeFirst() {
        case .setup:
            operation.stage = .setup(step: 0)
            setupNext(operation, context: &context)
        case .pull:
            startPull(operation, context: &context)
        case .push:
            startPush(operation, context: &context)
        case .rebuild(let purge):
            startRebuild(operation, purge: purge, context: &context)
        }
    }

    /// The probes before an upload phase: the download's, back to back, if it had none.
    func uploadProbes(_ operation: HistoryOperation) -> [String] {
        var probes: [String] = []
        if !operation.passedDownloadStart { probes += ["download.start", "download.done"] }
        operation.passedDownloadStart = true
        operation.passedUploadStart = true
        return probes
    }

    private func finish(_ operation: HistoryOperation, context: inout HistoryContext) {
        effects.append(.trace(kind: "operation.done", details: [
            TraceField("operation", .int(Int64(operation.number))),
        ], rules: []))
        if let waiter = operation.waiter {
            operation.waiter = nil
            effects.append(.completed(waiter))
        }
        runner.finish()
        precondition(requestOwners.isEmpty, "history: an operation ended with a request in flight")
        startNext(context: &context)
    }

    func send(_ request: CloudRequest, for operation: HistoryOperation) {
        nextRequestNumber += 1
        let id = RequestID(nextRequestNumber)
        requestOwners[id] = operation.number
        effects.append(.send(id, request))
    }

    private func answered(_ id: RequestID, _ response: CloudResponse,
                          context: inout HistoryContext) {
        // A request of the killed incarnation that reached the cloud after the relaunch is
        // answered to this engine, which never sent it: ignored.
        guard let number = requestOwners.removeValue(forKey: id), let operation = runner.running,
              operation.number == number else { return }
        if operation.isPaused {
            precondition(operation.bufferedAnswer == nil,
                "history: a second answer while one request at a time is in flight")
            operation.bufferedAnswer = response
            return
        }
        handleAnswer(response, operation, context: &context)
    }

    func handleAnswer(_ response: CloudResponse, _ operation: HistoryOperation,
                      context: inout HistoryContext) {
        switch operation.stage {
        case .setup: setupAnswered(response, operation, context: &context)
        case .pull: pullAnswered(response, operation, context: &context)
        case .push, .rebuild: pushAnswered(response, operation, context: &context)
        case .starting: preconditionFailure("history: an answer before the first phase's request")
        }
    }

    /// Writes the sync data alone.
    func writeSyncData(_ context: HistoryContext) {
        effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
    }

    /// The synchronized entities, in the schema's order.
    var synchronizedEntities: [EntityDescription] {
        schema.entities.filter(\.isSynchronized)
    }

    /// HIS-1: the zone of an owner (the user's own: the account signed in now).
    /// HISW-12: nothing observes the account (HIS-34), so changes a switch finds not yet sent
    /// go up with the next push into the account now signed in.
    private func noteUnpushedChangesCarried(context: HistoryContext) {
        guard let account = context.account else { return }
        defer { signedInAccount = account }
        guard let previous = signedInAccount, previous != account else { return }
        // A failed push's changes are sent again; a push in flight went to the old account.
        let sent = stageLeftByFailure ? nil : stagedToken
        let unsent = unconsumedModels(
            context.store, after: sent ?? context.syncData.persistedToken)
        guard !unsent.isEmpty else { return }
        effects.append(.trace(kind: "account.unpushed-changes-carried", details: [
            TraceField("from", .string(previous)),
            TraceField("into", .string(account)),
            TraceField("models", .int(Int64(unsent.count))),
            TraceField("note", .string("changes saved under the other account are pushed "
                + "into this one")),
        ], rules: ["HISW-12", "HIS-34"]))
    }

    func zone(owner: String?, _ context: HistoryContext) -> ZoneID {
        ZoneID(owner: owner ?? context.account ?? "", name: Self.zoneName)
    }
}
