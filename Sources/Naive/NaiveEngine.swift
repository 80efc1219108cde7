import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

/// The context `naive` handles events in: its sync data is `NaiveSyncData`.
typealias NaiveContext = EngineContext<NaiveSyncData>

/// The `naive` engine: the article's `CloudKitManager` (seed 004) as docs/NAIVE.md specifies
/// it, a deterministic state machine.
///
/// Every save, delete and download is an operation of its own, started the moment it is
/// created and run alongside the others, as the article's calls are; all of them live in
/// memory only (NAIVE-5, NAIVE-14); the disk holds
/// one database token, the models' record names and a diagnostic ledger (`NaiveSyncData`).
///
/// Invariants (each traps): each operation has at most one request in flight; a `.resume`
/// comes only while an operation is stopped at a probe point (the first stopped goes on,
/// whatever the ticket); only retry timers are set, and one fires only while its operation
/// waits for it. An answer to a request it never sent (a killed incarnation's) is ignored.
public final class NaiveEngine: SyncEngine {
    public typealias SyncData = NaiveSyncData

    public static let name = "naive"
    /// The store author of the engine's downloads, so they are never uploaded (NAIVE-14).
    public static let author = "naive"
    /// The store author of saves made while nothing observed the store.
    public static let unobservedAuthor = "unobserved"
    /// NAIVE-2: the one custom zone.
    public static let zoneName = "Notes"
    /// NAIVE-6: the retry-after when an error names none.
    public static let defaultRetryAfter = SimTime.seconds(3)

    let schema: Schema
    let pageSize: Int
    /// The article's code taken literally (`naive-literal`, NAIVE-15..18).
    let isLiteral: Bool

    // MARK: Memory (lost on kill)

    var autosync = true
    /// The newest history entry of the store whose saves were handled.
    var historyPosition: Int64 = 0
    /// The account the app launched with (NAIVE-12 tells a switch from a deleted zone).
    var launchAccount: String?
    var nextRequestNumber: UInt64 = 0
    var nextOperationNumber = 0
    var operations: [Int: NaiveOperation] = [:]
    var requestOwners: [RequestID: Int] = [:]
    /// Operations stopped at a probe point, in the order they passed it: several can be at
    /// once, since operations run alongside each other (NAIVE-5).
    var resumeQueue: [Int] = []
    /// Local models a complete zone fetch did not bring, traced once per launch (NAIVEW-5).
    var reportedMissing: Set<String> = []
    /// Records this launch saw in iCloud, by name: their zone and when (NAIVEW-5).
    var seenInCloud: [String: (zone: String, at: SimTime)] = [:]
    /// Values of saves dropped for a network error, by record (NAIVEW-3).
    var droppedSaves: [String: [String: AttributeValue?]] = [:]
    /// Records whose deletion was dropped for a network error (NAIVEW-3).
    var droppedDeletes: Set<String> = []
    /// The records whose model the app deleted this launch, with when iCloud answered the
    /// deletion (nil while it is on its way or waits for a retry) (NAIVE-DR-4).
    var deletions: [String: SimTime?] = [:]
    /// The answered deletion of each record: its operation and when the answer came
    /// (NAIVE-DR-2: an older save of the record applied after it created it again).
    var answeredDeletions: [String: (operation: Int, at: SimTime)] = [:]
    /// The newest save of each record that succeeded, by operation number (NAIVEW-4).
    var lastSucceededSave: [String: Int] = [:]
    /// The last answered save of each record: its operation and when iCloud applied it
    /// (NAIVE-DR-2 compares the two orders).
    var lastAnsweredSave: [String: (operation: Int, applied: SimTime)] = [:]
    /// Retries traced as NAIVEW-4 (they left after a newer save succeeded), which NAIVE-DR-2
    /// does not name again.
    var staleRetries: Set<Int> = []
    /// Since when the device is online while the app runs (NAIVEW-8); nil while offline.
    var onlineSince: SimTime?
    /// When the newest download of this launch began (NAIVEW-8).
    var lastDownloadStart: SimTime?
    /// A zone fetch of this launch completed (`downloaded-once`).
    var hasCompletedZoneFetch = false
    /// This launch's setup found the zone in iCloud or created it (NAIVE-2): a save's
    /// `zoneNotFound` before that is the zone not created yet, after it a deletion elsewhere
    /// (NAIVEW-11).
    var hasZone = false
    /// Models this launch's saves named (NAIVE-1): a zone the setup creates never held their
    /// records, so they do not show NAIVEW-11.
    var namedThisLaunch: Set<ModelID> = []
    /// The effects of the event being handled, appended to by every step; empty between events.
    var effects: [EngineEffect] = []

    public init(schema: Schema, pageSize: Int = 100, literal: Bool = false) {
        self.schema = schema
        self.pageSize = pageSize
        self.isLiteral = literal
    }

    // MARK: SyncEngine

    public var state: EngineState {
        let all = operations.values
        if all.contains(where: { !$0.isWaitingForRetry }) { return .syncing }
        if !all.isEmpty { return EngineState("waiting", "retryAfter") }
        return .idle
    }

    /// Nothing runs; operations waiting for a retry timer do not count.
    public func isIdle(now: SimTime) -> Bool {
        operations.values.allSatisfy(\.isWaitingForRetry)
    }

    public func setAutosync(_ enabled: Bool) {
        autosync = enabled
    }

    /// Save and delete operations in memory: what the engine still means to upload.
    var pendingCount: Int {
        operations.values.reduce(0) { $0 + ($1.isUpload ? 1 : 0) } // tidy: ordered (a count)
    }

    public func handle(
        _ event: EngineEvent, context: inout EngineContext<NaiveSyncData>
    ) -> [EngineEffect] {
        switch event {
        case .launch(let waiter):
            launch(waiter: waiter, context: &context)
        case .storeSaved:
            storeSaved(context: &context)
        case .push:
            if autosync {
                startDownload(.push, waiter: nil, context: &context)
            } else {
                effects.append(.trace(kind: "push.ignored", details: [
                    TraceField("reason", .string("autosync off")),
                ], rules: []))
            }
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
            effects.append(.trace(kind: "observer.attached", details: [
                TraceField("note", .string("models saved meanwhile are uploaded once edited")),
            ], rules: ["NAIVE-14"]))
        case .accountChanged:
            effects.append(.trace(kind: "account.change-ignored", details: [
                TraceField("account", context.account.map { .string($0) } ?? .null),
            ], rules: ["NAIVE-12"]))
        case .networkChanged(let online):
            if online {
                if onlineSince == nil { onlineSince = context.now }
                effects.append(.trace(kind: "network.online-ignored", details: [
                    TraceField("note", .string("no fetch until a push or a launch")),
                ], rules: ["NAIVE-7"]))
            } else {
                onlineSince = nil
            }
        }
        var handled: [EngineEffect] = []
        swap(&handled, &effects)
        return handled
    }

    // MARK: Operations and probe points

    func makeOperation(_ job: NaiveOperation.Job) -> NaiveOperation {
        nextOperationNumber += 1
        let operation = NaiveOperation(number: nextOperationNumber, job: job)
        operations[operation.number] = operation
        return operation
    }

    /// Passes the probe points one by one (each stops the engine until `.resume`), then runs
    /// `step`.
    func pass(
        _ probes: [String], then step: NaiveOperation.Step, _ operation: NaiveOperation,
        context: inout NaiveContext
    ) {
        guard let first = probes.first else {
            run(step, operation, context: &context)
            return
        }
        operation.probes = Array(probes.dropFirst())
        operation.next = step
        operation.isPaused = true
        resumeQueue.append(operation.number)
        effects.append(.probe(first, ticket: ProbeTicket(synchronization: operation.number)))
    }

    /// Goes on with the operation first in its own queue, whichever ticket comes back (the
    /// order it always kept; a trigger's action at a point can interleave the `.resume`s).
    private func resume(
        _ ticket: ProbeTicket, context: inout NaiveContext
    ) {
        guard let number = resumeQueue.first, let operation = operations[number],
              operation.isPaused else {
            let named = ticket.synchronization.map { "operation \($0)" } ?? "no operation"
            preconditionFailure("naive: resumed \(named) with nothing paused")
        }
        resumeQueue.removeFirst()
        if !operation.probes.isEmpty {
            let probe = operation.probes.removeFirst()
            resumeQueue.append(number)
            effects.append(.probe(probe, ticket: ProbeTicket(synchronization: number)))
            return
        }
        operation.isPaused = false
        run(operation.next, operation, context: &context)
        if !operation.isPaused, case .wait = operation.next, let answer = operation.bufferedAnswer {
            operation.bufferedAnswer = nil
            handleAnswer(answer, operation, context: &context)
        }
    }

    func run(
        _ step: NaiveOperation.Step, _ operation: NaiveOperation,
        context: inout NaiveContext
    ) {
        operation.next = .wait
        switch step {
        case .wait:
            break
        case .send:
            sendFirst(operation, context: &context)
        case .resend:
            resend(operation, context: &context)
        case .scheduleRetry(let delay):
            operation.isWaitingForRetry = true
            effects.append(.setTimer(operation.retryTimer, after: delay))
        case .storePage:
            storePage(operation, context: &context)
        case .afterPage:
            afterPage(operation, context: &context)
        case .nextZone:
            nextZone(operation, context: &context)
        case .finish:
            operations[operation.number] = nil
            if case .download(let download) = operation.job {
                complete(download)
            }
        }
    }

    /// `launch` and `sync` end for the script when their download operation ends, after its
    /// `sync.done`: the synchronization ends there (ENGINES.md §6.1), zone fetches included.
    /// A download waiting for a retry has not ended yet (NAIVE-6), so the script waits on.
    private func complete(_ download: NaiveDownload) {
        if let waiter = download.waiter {
            download.waiter = nil
            effects.append(.completed(waiter))
        }
    }

    /// Starts an operation at once (a new one, or one whose retry came due), alongside any
    /// other that runs: each save's request leaves the moment the save is made, with no
    /// debounce and no queue (NAIVE-5). It passes `sync.start` and the probe points before
    /// its request; the probe points of several operations may interleave on a device.
    func start(
        _ operation: NaiveOperation, context: inout NaiveContext
    ) {
        let isRetry = operation.lastRequest != nil
        switch operation.job {
        case .save, .delete:
            pass(["sync.start", "download.start", "download.done", "upload.start"],
                 then: isRetry ? .resend : .send, operation, context: &context)
        case .download:
            pass(["sync.start", "download.start"], then: isRetry ? .resend : .send, operation,
                 context: &context)
        case .setup:
            preconditionFailure("naive: the setup sends its steps itself, with no probe points")
        }
    }

    /// Sends a request for an operation; its answer comes back as `.response`.
    func send(
        _ request: CloudRequest, for operation: NaiveOperation
    ) {
        nextRequestNumber += 1
        let id = RequestID(nextRequestNumber)
        requestOwners[id] = operation.number
        operation.lastRequest = request
        effects.append(.send(id, request))
    }

    private func answered(
        _ id: RequestID, _ response: CloudResponse,
        context: inout NaiveContext
    ) {
        // A request of the killed incarnation that reached the cloud after the relaunch is
        // answered to this engine, which never sent it: ignored.
        guard let number = requestOwners.removeValue(forKey: id),
              let operation = operations[number] else { return }
        if operation.isPaused {
            precondition(operation.bufferedAnswer == nil,
                "naive: a second answer while an operation has one request in flight")
            operation.bufferedAnswer = response
            return
        }
        handleAnswer(response, operation, context: &context)
    }

    private func handleAnswer(
        _ response: CloudResponse, _ operation: NaiveOperation,
        context: inout NaiveContext
    ) {
        switch operation.job {
        case .setup:
            setupAnswered(response, operation, context: &context)
        case .save, .delete:
            uploadAnswered(response, operation, context: &context)
        case .download:
            downloadAnswered(response, operation, context: &context)
        }
    }

    /// A retry timer: the same operation again, with the values it captured (NAIVE-6).
    private func timerFired(
        _ timer: EngineTimer, context: inout NaiveContext
    ) {
        guard timer.rawValue.hasPrefix("retry."), let number = Int(timer.rawValue.dropFirst(6)),
              let operation = operations[number], operation.retryTimer == timer,
              operation.isWaitingForRetry, let request = operation.lastRequest else {
            preconditionFailure("naive: timer '\(timer.rawValue)' fired with no retry waiting")
        }
        operation.isWaitingForRetry = false
        effects.append(.trace(kind: "retry.due", details: [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("request", .string(request.kind)),
        ], rules: ["NAIVE-6"]))
        if case .setup = operation.job {
            send(request, for: operation)
        } else {
            start(operation, context: &context)
        }
    }

    /// An operation whose retry came due: the same request again (NAIVE-6).
    private func resend(
        _ operation: NaiveOperation, context: inout NaiveContext
    ) {
        guard let request = operation.lastRequest else {
            preconditionFailure("naive: a retry of operation \(operation.number), never sent")
        }
        if operation.isUpload {
            resendUpload(operation, request, context: &context)
        } else {
            send(request, for: operation)
        }
    }

    private func appCall(
        _ call: AppCall, waiter: WaiterID?, context: inout NaiveContext
    ) {
        switch call {
        case .syncNow:
            startDownload(.sync, waiter: waiter, context: &context)
        case .stop, .start, .resetSyncData, .initializeSchema:
            // The profile does not list these statements, so the validator refuses them
            // (NAIVE-13); should one arrive anyway, the article has no such call.
            effects.append(.trace(kind: "app-call.unsupported", details: [
                TraceField("call", .string(call.statement)),
            ], rules: ["NAIVE-13"]))
            if let waiter { effects.append(.completed(waiter)) }
        }
    }

    /// The store vanished or was rebuilt: the record names of models that are gone go with
    /// them (the article's `Note.id` lived in the model).
    private func storeReplaced(context: inout NaiveContext) {
        historyPosition = context.store.lastHistoryPosition
        let gone = context.syncData.bindings.sortedModels.filter { !context.store.contains($0) }
        for model in gone { context.syncData.bindings.forget(model) }
        effects.append(.trace(kind: "store.replaced", details: [
            TraceField("forgotten", .int(Int64(gone.count))),
        ], rules: []))
        if !gone.isEmpty {
            effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
        }
    }

    /// Writes the sync data (the token, the record names, the ledger).
    func writeSyncData(_ context: NaiveContext) {
        effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
    }

    /// The synchronized entities, in the schema's order.
    var synchronizedEntities: [EntityDescription] {
        schema.entities.filter(\.isSynchronized)
    }

    /// The app's zone in the account the device is signed into now: `Notes`, or the default
    /// zone for the literal code (NAIVE-15).
    func zone(_ context: NaiveContext) -> ZoneID {
        ZoneID(owner: context.account ?? "",
            name: isLiteral ? ZoneID.defaultZoneName : Self.zoneName)
    }
}
