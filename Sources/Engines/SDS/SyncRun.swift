import CloudSim
import Kernel
import LocalStore

/// One page of a zone's change feed, between its arrival and the save of its token.
struct DownloadPage: Hashable, Sendable {
    var records: [CloudRecord]
    var deletions: [RecordDeletion]
    var token: ZoneChangeToken
    var moreComing: Bool
}

/// What an upload request carried, to match its answer against.
struct UploadBatch: Hashable, Sendable {
    /// Model → the versions of the keys it sent.
    var sentKeys: [ModelID: [String: Int64]]
    var savedModels: [String: ModelID]
    var deletedNames: [String]
    /// Records uploaded as new (their models had no record yet).
    var insertedNames: [String]
}

/// The steps of one synchronization (SYNC-2: download first, then upload).
enum SyncStep: Hashable, Sendable {
    case begin
    case checkAccount
    case ensureZone
    case ensureSubscription
    case downloadStart
    case fetchPage
    case pageFetched(DownloadPage)
    case storePage(DownloadPage)
    case savePage(DownloadPage)
    case downloadDone
    case uploadStart
    case uploadBatch
    case uploadAnswered
    case finish
    case ended
}

/// A synchronization in progress: where it is and what it waits for.
struct SyncRun {
    var step: SyncStep = .begin
    /// The request whose answer the run waits for, and the step that handles it.
    var awaiting: RequestID?
    /// Set when a probe was passed; the run continues on `.resume`.
    var awaitingResume = false
    var waiters: [WaiterID]
    var batch: UploadBatch?
    var downloadFailed = false
    var pagesDownloaded = 0
    /// Record names this run uploaded already; each is tried once per run.
    var attempted: Set<String> = []
    var uploadRequests = 0

    /// Whether the run reached its upload: changes recorded later need another run.
    var hasStartedUploading: Bool {
        if uploadRequests > 0 { return true }
        switch step {
        case .finish, .ended: return true
        default: return false
        }
    }

    init(waiters: [WaiterID]) {
        self.waiters = waiters
    }
}
