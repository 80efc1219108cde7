import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One request of the mirroring delegate's queue (MIR-6): setup, import or export (and the
/// schema initialization), run one at a time; its memory is lost on kill.
final class MirrorRequest {
    enum Kind: String, Sendable {
        case setup
        case `import`
        case export
        case initializeSchema = "initialize-schema"
    }

    /// Where the request goes on after a probe point or an answer.
    enum Step {
        case wait
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

    let number: Int
    let kind: Kind
    var next: Step = .wait
    var probes: [String] = []
    var isPaused = false
    var bufferedAnswer: CloudResponse?
    var setupCall: SetupCall = .accountStatus
    /// Setup: the engine's count of account changes when it started; a later change has its
    /// own setup deferred behind this one (MIR-6), and this one's account check is stale.
    var accountChangesAtStart = 0
    /// Import: the page fetched, waiting to be stored.
    var page: (records: [CloudRecord], deletions: [RecordDeletion], token: ZoneChangeToken,
        moreComing: Bool)?
    var zoneChanged = false
    var databaseToken: DatabaseChangeToken?
    /// Export: the batches left to send, and what they cover.
    var batches: [(saves: [RecordSave], deletes: [String])] = []
    var exportModels: [ModelID] = []
    var exportDeletes: [String] = []
    var exportPosition: Int64 = 0
    /// The keys the app changed per exported update (MIRW-1's trace).
    var updatedKeys: [ModelID: [String]] = [:]
    var failedModels: [ModelID] = []
    var failedDeletes: [String] = []
    var firstError: CloudError?
    /// Initialize-schema: its second step deletes the sample records.
    var sampleNames: [String] = []
    var error: CloudError?

    init(number: Int, kind: Kind) {
        self.number = number
        self.kind = kind
    }
}
