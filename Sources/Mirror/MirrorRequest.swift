import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One request of the mirroring delegate's queue (MIR-6): setup, import or export (and the
/// schema initialization), run one at a time; its memory is lost on kill.
///
/// `work` holds what only its kind needs; `progress` where it stands between two events: a
/// step running, an answer due, or a probe point passed (with the answer in flight, or
/// come). At most one cloud request is in flight, and only the active request's.
final class MirrorRequest {
    enum Kind: String, Sendable {
        case setup
        case `import`
        case export
        case initializeSchema = "initialize-schema"
    }

    /// Where the request goes on after a probe point.
    enum Step {
        /// Setup: the next of its calls.
        case setupNext
        /// Import: fetch the database changes, then each page of the zone.
        case fetchDatabaseChanges
        case fetchPage
        case storePage
        case afterPage
        /// Export: serialize, then send the batches one by one.
        case serialize
        case sendBatch
        /// Export: every batch answered.
        case serializeDone
        case finish
    }

    enum SetupCall {
        case accountStatus
        case userRecordID
        case createZone
        case subscribe
        case done
    }

    /// The request's own memory, by kind.
    enum Work {
        case setup(SetupWork)
        case `import`(ImportWork)
        case export(ExportWork)
        case initializeSchema(SchemaWork)
    }

    /// Where the request stands between two events.
    enum Progress {
        /// A step runs, nothing is in flight (never left in between events).
        case running
        /// The answer to the cloud request `RequestID` is due.
        case awaiting(RequestID)
        /// A probe point passed: the probes left after it, then the step.
        case paused(probes: [String], then: Step)
        /// A probe point passed with a cloud request in flight: its answer waits for the last
        /// probe's resume.
        case pausedAwaiting(probes: [String], RequestID)
        /// As `pausedAwaiting`, the answer come.
        case pausedAnswered(probes: [String], CloudResponse)
    }

    /// Setup: the call it is at, and the engine's count of account changes when it started;
    /// a later change has its own setup deferred behind this one (MIR-6), and this one's
    /// account check is stale.
    final class SetupWork {
        var call: SetupCall = .accountStatus
        let accountChangesAtStart: Int
        init(accountChangesAtStart: Int) { self.accountChangesAtStart = accountChangesAtStart }
    }

    /// Import: the database token fetched (memory until the zone's last page, or the
    /// import's end, writes it), and the page fetched, waiting to be stored.
    final class ImportWork {
        var page: (records: [CloudRecord], deletions: [RecordDeletion], token: ZoneChangeToken,
            moreComing: Bool)?
        var zoneChanged = false
        var databaseToken: DatabaseChangeToken?
    }

    /// Export: what it covers, the batches left to send, and what failed.
    final class ExportWork {
        var batches: [(saves: [RecordSave], deletes: [String])] = []
        var models: [ModelID] = []
        var deletes: [String] = []
        var position: Int64 = 0
        /// The keys the app changed per exported update (MIRW-1's trace).
        var updatedKeys: [ModelID: [String]] = [:]
        var failedModels: [ModelID] = []
        var failedDeletes: [String] = []
        var firstError: CloudError?
    }

    /// Initialize-schema: the batches left (samples saved, then deleted by name).
    final class SchemaWork {
        var batches: [(saves: [RecordSave], deletes: [String])] = []
        var sampleNames: [String] = []
    }

    let number: Int
    let work: Work
    var progress: Progress = .running

    init(number: Int, kind: Kind, accountChanges: Int) {
        self.number = number
        switch kind {
        case .setup: work = .setup(SetupWork(accountChangesAtStart: accountChanges))
        case .import: work = .import(ImportWork())
        case .export: work = .export(ExportWork())
        case .initializeSchema: work = .initializeSchema(SchemaWork())
        }
    }

    var kind: Kind {
        switch work {
        case .setup: .setup
        case .import: .import
        case .export: .export
        case .initializeSchema: .initializeSchema
        }
    }

    var isPaused: Bool {
        switch progress {
        case .running, .awaiting: false
        case .paused, .pausedAwaiting, .pausedAnswered: true
        }
    }
}
