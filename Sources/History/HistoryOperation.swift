import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One coordinator operation (a call of `enable()`, `push()`, a debounced pull, `sync`, the
/// end of a backoff, a recovery), in memory only: a list of phases run one after the other.
///
/// Operations run one at a time, in the order they were requested, so each passes the
/// contract's probe points with no other's in between (docs/HISTORY.md, HIS-16's choice).
final class HistoryOperation {
    enum Phase: Equatable {
        /// HIS-9: create the zone, subscribe to the private and shared databases.
        case setup
        /// HIS-22: private, then shared.
        case pull
        /// HIS-17.
        case push
        /// HIS-27, HIS-28: the recovery of a deleted or purged zone; `purge` clears the sync
        /// data first (HIS-27).
        case rebuild(purge: Bool)
    }

    /// What the operation does once it has passed its probe points.
    enum Step {
        case wait
        case nextPhase
        case setupNext
        case pullScope
        case fetchDatabase
        case nextZone
        case storePage
        case afterPage
        case endScope
        case pushNext
        case pushDone
        case finish
    }

    /// The state of the phase the operation is in: each case carries exactly that phase's
    /// payload. The last phase's state stays until the operation finishes (its end probes).
    enum Stage {
        /// Passing `sync.start` and the probes queued with it: no phase has begun yet.
        case starting
        /// HIS-9: the setup request now running (0 the zone, 1 and 2 the subscriptions).
        case setup(step: Int)
        case pull(HistoryPullState)
        case push(HistoryPushState)
        case rebuild(HistoryRebuildState)
    }

    let number: Int
    /// What started it, for the trace (`launch`, `save`, `push-notification`, …).
    let trigger: String
    /// The phases still to run, in order.
    var phases: [Phase]
    var waiter: WaiterID?
    /// The push phase runs as the compensating run of HIS-11.
    var isCompensating = false
    /// The push phase was reserved when `push()` was called (HIS-11's `isPushing`).
    var holdsPushFlag = false

    // Flow, across phases.
    var probes: [String] = []
    var next: Step = .wait
    var isPaused = false
    var bufferedAnswer: CloudResponse?
    var passedDownloadStart = false
    var passedUploadStart = false
    var stage: Stage = .starting

    init(number: Int, trigger: String, phases: [Phase]) {
        self.number = number
        self.trigger = trigger
        self.phases = phases
    }

    /// The pull phase's state; a pull step runs only in a pull phase.
    var pull: HistoryPullState {
        guard case .pull(let state) = stage else {
            preconditionFailure("history: a pull step outside a pull phase")
        }
        return state
    }

    /// The upload of a push or a rebuild phase; a push step runs only in one of them.
    var upload: HistoryPushState {
        switch stage {
        case .push(let state): return state
        case .rebuild(let state): return state.upload
        case .starting, .setup, .pull:
            preconditionFailure("history: a push step outside a push or rebuild phase")
        }
    }

    /// The rebuild phase's state, or nil in any other phase.
    var rebuild: HistoryRebuildState? {
        if case .rebuild(let state) = stage { return state }
        return nil
    }

    /// Whether the operation is in its pull phase (or ends after it).
    var isInPull: Bool {
        if case .pull = stage { return true }
        return false
    }
}

/// One request of a push (HIS-17 steps 4–6): inserts, updates or deletions of one database.
struct HistoryPushRequest {
    enum Kind: String {
        case inserts
        case updates
        case deletions
    }

    var kind: Kind
    var scope: DatabaseScope
    var zone: ZoneID
    var saves: [RecordSave]
    var deletes: [String]
    /// The models the saves stand for, in order.
    var models: [ModelID]

    var policy: SavePolicy { kind == .updates ? .changedKeys : .allKeys }

    var request: CloudRequest {
        .modifyRecords(scope: scope, zone: zone, saves: saves, deletes: deletes, policy: policy,
                       atomic: false)
    }
}
