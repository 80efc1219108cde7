import CKSyncEngineSim
import Kernel
import SyncContract
import CloudSim

/// What one CKSyncEngine instance (one database scope) is doing. Each instance runs one
/// operation at a time (OBX-9), between its `will…Changes` and its `did…Changes` events, so
/// each scope has its own phase: one database's operation never touches the other's.
struct ScopeOperation {
    var phase: OperationPhase = .idle
    /// This CKSyncEngine's retry timer is set (`state` reads `waiting(retryAfter)`).
    var waitingForRetry = false
}

/// The operation one CKSyncEngine runs, with the state only that operation has (a reference:
/// the events of the operation change it in place, and reading the phase copies one pointer).
enum OperationPhase {
    case idle
    case fetching(FetchRun)
    case sending(SendRun)

    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// The running fetch; only the events of a fetch read it.
    var fetch: FetchRun {
        guard case .fetching(let run) = self else {
            preconditionFailure("outbox: a fetch's state read outside a fetch (\(self))")
        }
        return run
    }

    /// The running send; only the events of a send read it.
    var send: SendRun {
        guard case .sending(let run) = self else {
            preconditionFailure("outbox: a send's state read outside a send (\(self))")
        }
        return run
    }

}

/// A delegate event whose handling waits for the `.resume` of its probe point; the
/// CKSyncEngine waits meanwhile (`deferEventCompletion()`). `resumeAt`: the count of resumes
/// that reaches that probe's (nil until the event's effects are counted).
struct Pause {
    var resumeAt: Int?

    func isDue(_ resumesReceived: Int) -> Bool {
        guard let resumeAt else { return false }
        return resumeAt <= resumesReceived
    }
}

/// A fetch, from `willFetchChanges` to `didFetchChanges`.
final class FetchRun {
    /// The fetch restarted a feed from scratch (an expired token, or a zone's first fetch):
    /// it brings no deletions (OBX-24, OBXW-10).
    var tokenExpired = false
    /// Records the fetch brought, as records or deletions (OBXW-10).
    var seen: Set<String> = []
    /// Zones of which the fetch brought a deletion or a record other than one this device
    /// saved since its zone save (OBX-DR-6).
    var zonesWithNews: Set<ZoneID> = []
    /// Zones fetched from scratch (a nil token), which bring every live record (OBX-DR-7).
    var zonesFromScratch: Set<ZoneID> = []
    /// The earliest creation time of the records the fetch brought, per zone (OBX-DR-7).
    var earliestCreation: [ZoneID: SimTime] = [:]
    /// Missed deletions already traced in this fetch.
    var reportedMissed: Set<String> = []
    /// A page was applied; its `stateUpdate` is `download.page.saved` (§ probe points).
    var pageAwaitingState = false
    /// A fetched page waiting for the resume of `download.page.fetched`, then applied.
    var pausedPage: (changes: CKSyncEngine.FetchedRecordZoneChanges, pause: Pause)?
}

/// A send, from `willSendChanges` to `didSendChanges`.
final class SendRun {
    /// The batch waits for the resume of `upload.start` (the app's saves there go in it).
    var batchPause: Pause? = Pause()
    /// The contract's `upload.done` passed.
    var uploadDonePassed = false
    /// Record names in the batch in flight.
    var inFlight: [String] = []
    /// Records edited while their save was in flight (OBXW-3).
    var editedInFlight: [String] = []
}

extension OutboxEngine {
    /// The operation state of one database's CKSyncEngine.
    func operation(_ scope: DatabaseScope) -> ScopeOperation {
        scope == .privateDatabase ? privateOperation : sharedOperation
    }

    /// Changes one database's operation state in place.
    func withOperation<R>(_ scope: DatabaseScope, _ body: (inout ScopeOperation) -> R) -> R {
        scope == .privateDatabase ? body(&privateOperation) : body(&sharedOperation)
    }

    /// The running fetch of the scope; only the events of a fetch use it.
    func fetch(_ scope: DatabaseScope) -> FetchRun { operation(scope).phase.fetch }

    /// The running send of the scope; only the events of a send use it.
    func send(_ scope: DatabaseScope) -> SendRun { operation(scope).phase.send }

    /// A `will…Changes` starts an operation: the CKSyncEngine runs one at a time, and ends
    /// each with its `did…Changes`, so none runs in this scope yet.
    func begin(_ phase: OperationPhase, scope: DatabaseScope) {
        withOperation(scope) { operation in
            precondition(operation.phase.isIdle,
                "outbox: \(scope.rawValue) began \(phase) while \(operation.phase) runs")
            operation.phase = phase
        }
    }

    /// A `did…Changes` ends the scope's operation.
    func end(scope: DatabaseScope) {
        withOperation(scope) { $0.phase = .idle }
    }

    /// Whether either CKSyncEngine runs an operation.
    var isRunningOperation: Bool {
        !privateOperation.phase.isIdle || !sharedOperation.phase.isIdle
    }

    /// The scope a CKSyncEngine trace names (its `database` field).
    static func scope(of details: [TraceField]) -> DatabaseScope {
        guard let field = details.first(where: { $0.key == "database" }),
              case .string(let raw) = field.value, let scope = DatabaseScope(rawValue: raw)
        else { preconditionFailure("outbox: a CKSyncEngine trace without its database") }
        return scope
    }

    /// The scope of one of outbox's CKSyncEngine timers, by its prefix.
    static func scope(of timer: EngineTimer) -> DatabaseScope? {
        if timer.rawValue.hasPrefix("outbox.private.") { return .privateDatabase }
        if timer.rawValue.hasPrefix("outbox.shared.") { return .sharedDatabase }
        return nil
    }
}
