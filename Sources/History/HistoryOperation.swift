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

    let number: Int
    /// What started it, for the trace (`launch`, `save`, `push-notification`, …).
    let trigger: String
    var phases: [Phase]
    var waiter: WaiterID?
    /// The push phase runs as the compensating run of HIS-11.
    var isCompensating = false
    /// The push phase was reserved when `push()` was called (HIS-11's `isPushing`).
    var holdsPushFlag = false

    // Flow.
    var probes: [String] = []
    var next: Step = .wait
    var isPaused = false
    var bufferedAnswer: CloudResponse?
    var phase: Phase?
    var passedDownloadStart = false
    var passedUploadStart = false

    // Setup.
    var setupIndex = 0

    // Pull.
    var scopes: [DatabaseScope] = []
    var scopeIndex = 0
    var changedZones: [ZoneID] = []
    var deletedZones: [ZoneDeletion] = []
    var zoneIndex = 0
    var databaseToken: DatabaseChangeToken?
    var pendingDatabaseToken: DatabaseChangeToken?
    var page: (records: [CloudRecord], deletions: [RecordDeletion], token: ZoneChangeToken,
        moreComing: Bool)?
    /// HIS-24: one retry after `changeTokenExpired` per pull.
    var tokenRetries = 0
    var pullFailed = false

    // Push.
    var requests: [HistoryPushRequest] = []
    var requestIndex = 0
    var pushFailure: (error: HistorySyncError, cloud: CloudError)?
    /// Records this push wrote before it failed (HISW-2).
    var writtenRecords: [String] = []
    /// The push phase sent at least one request (each answer passed `upload.done`).
    var sentRequest = false
    /// A rebuild's zone request is in flight (HIS-27, HIS-28).
    var rebuildZonePending = false

    init(number: Int, trigger: String, phases: [Phase]) {
        self.number = number
        self.trigger = trigger
        self.phases = phases
    }

    var scope: DatabaseScope { scopes[scopeIndex] }
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
