import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One page of a zone's change feed, between its arrival and the save of its token.
struct DownloadPage: Hashable, Sendable {
    /// The other user's zone the page comes from (shared database); nil for the app's own.
    var sharedZone: ZoneID?
    var records: [CloudRecord]
    var deletions: [RecordDeletion]
    var token: ZoneChangeToken
    var moreComing: Bool

    /// The page's token, moved out (an empty one left in its place): saved into the sync
    /// data, it is not copied there and then destroyed with the page.
    mutating func takeToken() -> ZoneChangeToken {
        var taken = ZoneChangeToken(
            zone: ZoneID(owner: "", name: ""), incarnation: 0, sequence: 0, epoch: 0)
        swap(&taken, &token)
        return taken
    }

    /// Puts the page's token in `saved`'s place and the saved one in the page's, to be
    /// destroyed with the page: assigning the token to the sync data's optional destroyed the
    /// old one through the runtime's generic witnesses of `Optional`.
    mutating func exchangeToken(with saved: inout ZoneChangeToken) {
        swap(&saved, &token)
    }
}

/// Which local model each record of a page goes to, decided before the page is stored.
struct PageResolution: Hashable, Sendable {
    /// The model that takes each record of the page (its own, or a twin), at the record's
    /// position in the page (`DownloadPage.records`); nil where none does (a new model is
    /// made, or the record is not stored).
    ///
    /// By position, not a map by record name, which would be made at the page's size with each name
    /// hashed into it, then hashed again to be looked up when the page is stored. A page holds a
    /// record once (a zone's change feed reports each record's current state, once), so its
    /// position tells it as its name would.
    var targets: [Target?] = []
    /// Matching waits until the page is stored (a test variant without LIM-2's window).
    var deferred = false

    /// The model a record goes to and how it was matched to it.
    struct Target: Hashable, Sendable {
        var model: ModelID
        var match: Match
    }

    /// How a record was matched to its model.
    enum Match: Hashable, Sendable {
        /// The model is bound to the record already.
        case own
        /// A local twin by values (ADOPT-4, LIFE-3, DEL-3).
        case values
        /// A local twin by identity values (ID-2).
        case identity
    }
}

/// What an upload request carried, to match its answer against.
struct UploadBatch: Hashable, Sendable {
    /// The request's saves, in its order: the model of each record and what it sent.
    ///
    /// A list, not maps by name: the answer's results come in the request's order (saves
    /// first, CloudResponse.recordsModified), so a result finds its save at its own index
    /// (`index(of:near:)`) by one comparison of names. Maps by name (of models, of their
    /// keys, of the earlier unanswered sends) would each be made at their size, filled and
    /// looked up again per saved record, hashing its name every time.
    var saved: [Save]
    var deletedNames: [String]
    /// An adoption request (`ifServerRecordUnchanged`, ADOPT-2).
    var isAdoption: Bool
    /// The zone the request uploads to (the app's own, or another user's share).
    var zone: ZoneID

    /// A model's save in the request.
    struct Save: Hashable, Sendable {
        var name: String
        var model: ModelID
        /// The versions of the keys it sent.
        var keys: [String: Int64]
        /// Uploaded as new (the model had no record yet).
        var isInsert: Bool
        /// SYNC-4: the unanswered send of the record from before this one (an earlier answer
        /// was lost); an answer that says this send was not applied leaves it as it was.
        var earlierUnanswered: UnansweredUpload?
    }

    /// Where the save of the record is in `saved`: at `hint` (a result's own index) when the
    /// answer keeps the request's order, else wherever it is; nil when the request did not
    /// save it. (Names are unique in a request: each model is saved once, under its name.)
    func index(of name: String, near hint: Int) -> Int? {
        if hint < saved.count && saved[hint].name == name { return hint }
        return saved.firstIndex { $0.name == name }
    }
}

/// The steps of one synchronization (SYNC-2: download first, then upload).
///
/// A small value: the page a download step works on is the download's (`DownloadRun.page`),
/// not the step's. With the page (and its resolution) as a payload, every read of `run.step`
/// (the `switch` of each step, each comparison) would copy the page's arrays and sets out of
/// the run and every step passed would destroy them: an outlined copy or destroy, and their
/// retains, a few times a step.
enum SyncStep: Hashable, Sendable {
    case begin
    case checkAccount
    /// SCHEMA-3: 0 create the schema zone, 1 save one record per entity, 2 delete the zone.
    case initializeSchema(phase: Int)
    case fetchDatabase
    case ensureZone
    case ensureSubscription
    /// EXT-2 / EXT-3: records and deletions another process skipped, downloaded again.
    case catchUp
    case downloadStart
    case fetchPage
    /// Sharing: the shared database's feed, then each accepted zone's pages.
    case fetchSharedDatabase
    /// `indirect`: held inline, the zone's four words made every switch over a step compare
    /// them case by case (one word is a jump table), and every copy of a step retain them.
    indirect case fetchSharedPage(ZoneID)
    /// The run's `page` arrived, is matched to local models, stored, its token saved.
    case pageFetched
    case resolvePage
    case storePage
    case savePage
    case downloadDone
    case uploadStart
    case uploadBatch
    case uploadAnswered
    case finish
    case ended

    /// Steps of the download (a failure there is a failed download: SYNC-6, SYNC-7).
    var isDownload: Bool {
        switch self {
        case .downloadStart, .fetchPage, .fetchSharedDatabase, .fetchSharedPage, .pageFetched,
             .resolvePage, .storePage, .savePage:
            return true
        default: return false
        }
    }

    /// Steps before the upload starts, where `stop()` ends the run after the current page.
    var isBeforeUpload: Bool {
        switch self {
        case .begin, .checkAccount, .fetchDatabase, .ensureZone, .ensureSubscription, .catchUp,
             .downloadStart, .fetchPage, .fetchSharedDatabase, .fetchSharedPage, .pageFetched,
             .resolvePage, .storePage, .savePage, .downloadDone:
            return true
        default:
            return false
        }
    }
}

/// A synchronization in progress: where it is and what it waits for.
///
/// What every step reads (the step, the request awaited, the waiters, the schema attempt) is
/// the run's own; what only the download or only the upload uses is its phase's (`phase`:
/// `DownloadRun` from `downloadStart`, `UploadRun` from `uploadStart`), so neither phase can
/// set the other's fields, and reading one outside its phase traps.
///
/// A reference: the engine's `run` and the step working on it are the same object, changed
/// in place. As a value, each step would swap it out of `run` (with a placeholder left
/// there, so `run != nil` still says a synchronization runs) and back, moving and
/// destroying a few hundred bytes per step.
///
/// `@exclusivity(unchecked)`: only the engine touches a run, one event at a time, and its
/// accesses to a field never overlap (the code was written against an `inout` value, which
/// the compiler checked statically), so the runtime check, paid on every access, could
/// never fire.
final class SyncRun {
    @exclusivity(unchecked) var step: SyncStep = .begin
    /// The request whose answer the run waits for, and the step that handles it.
    @exclusivity(unchecked) var awaiting: RequestID?
    /// Set when a probe was passed; the run continues on `.resume`.
    @exclusivity(unchecked) var awaitingResume = false
    @exclusivity(unchecked) var waiters: [WaiterID]
    /// The download failed (SYNC-6): set by the download (or the database feed before it),
    /// read by the upload that follows it.
    @exclusivity(unchecked) var downloadFailed = false
    /// SCHEMA-3: this run attempts the `initializeSchema()` asked for before it started.
    @exclusivity(unchecked) var carriesSchema = false
    /// Why the run ended early (the error `abortRun` was given), for the actions it fails;
    /// kept as the error and described only when read: describing one is costly.
    @exclusivity(unchecked) var failure: CloudError?
    /// What the current phase keeps; `.preparing` until the download starts.
    @exclusivity(unchecked) var phase: RunPhase = .preparing

    /// The download's state; only a download step asks for it.
    var download: DownloadRun {
        guard case .download(let state) = phase else {
            preconditionFailure("sds: a download step outside the download")
        }
        return state
    }

    /// The upload's state; only an upload step asks for it.
    var upload: UploadRun {
        guard case .upload(let state) = phase else {
            preconditionFailure("sds: an upload step outside the upload")
        }
        return state
    }

    /// Whether the run reached its upload: changes recorded later need another run.
    var hasStartedUploading: Bool {
        if case .upload(let state) = phase, state.uploadRequests > 0 { return true }
        switch step {
        case .finish, .ended: return true
        default: return false
        }
    }

    init(waiters: [WaiterID]) {
        self.waiters = waiters
    }
}

/// The phase of a run, with what only that phase uses (references: a step changes them in
/// place, as it does the run).
enum RunPhase {
    /// The account check, the schema, the database feed, the zone and subscriptions.
    case preparing
    case download(DownloadRun)
    case upload(UploadRun)
}

/// What a run's download keeps: the page in hand and the shared zones still to fetch.
final class DownloadRun {
    /// Accepted shared zones this run still has to download.
    @exclusivity(unchecked) var sharedZonesToFetch: [ZoneID] = []
    /// The page the download steps `pageFetched` … `savePage` work on, from its arrival to
    /// the save of its token, and the models its records go to (`resolvePage`, for
    /// `storePage`).
    @exclusivity(unchecked) var page: DownloadPage?
    @exclusivity(unchecked) var resolution = PageResolution()

    /// Takes the page of a download step out of the run (moved, not copied: a step that
    /// still needs it puts it back); one is there from `pageFetched` to `savePage`.
    func takePage() -> DownloadPage {
        guard let page = page.take() else { preconditionFailure("sds: a page step without a page") }
        return page
    }

    /// Lends the page of a download step to `body` where it lies in the run: taking it out
    /// and putting it back would destroy the (empty) place first, through the runtime's
    /// generic witnesses, twice per page.
    func withPage<Result>(_ body: (inout DownloadPage) -> Result) -> Result {
        precondition(!page.isNil, "sds: a page step without a page")
        return body(&page!)
    }
}

/// What a run's upload keeps: the batch in flight and what it tried already.
final class UploadRun {
    @exclusivity(unchecked) var batch: UploadBatch?
    /// Record names this run uploaded already (saves, deletions); each is tried once per run.
    @exclusivity(unchecked) var attempted = RecordNameSet()
    /// Record names this run uploaded already as adoptions (ADOPT-2), apart from the others:
    /// a name is tried once as each. (Apart, not as "adopt:" + the name in `attempted`: that
    /// made a new string, and hashed it, at each look.)
    @exclusivity(unchecked) var attemptedAdoptions = RecordNameSet()
    /// ID-4: old records of moved models this run tried to delete (apart from `attempted`:
    /// the model's save in its new zone, in the same run, comes first).
    @exclusivity(unchecked) var attemptedStaleCopies = RecordNameSet()
    @exclusivity(unchecked) var uploadRequests = 0
    /// SYNC-6: the existence check of edited records is done / under way.
    @exclusivity(unchecked) var existenceChecked = false
    @exclusivity(unchecked) var existenceCheckInFlight = false
    /// BIG-3: records fetched before their overflow asset is uploaded (SDSEngine+Overflow).
    @exclusivity(unchecked) var overflow = OverflowRunState()

    /// Whether this run tried the record's upload already, as an adoption or as another change.
    func hasAttempted(_ name: String, adoption: Bool) -> Bool {
        adoption ? attemptedAdoptions.contains(name) : attempted.contains(name)
    }

    /// `hasAttempted` of a name already hashed.
    func hasAttempted(_ key: HashedRecordName, adoption: Bool) -> Bool {
        adoption ? attemptedAdoptions.contains(key) : attempted.contains(key)
    }

    /// This run tried the record's upload, as an adoption or as another change.
    func noteAttempt(_ name: String, adoption: Bool) {
        if adoption { attemptedAdoptions.insert(name) } else { attempted.insert(name) }
    }

    /// `noteAttempt` of a name already hashed.
    func noteAttempt(_ key: HashedRecordName, adoption: Bool) {
        if adoption { attemptedAdoptions.insert(key) } else { attempted.insert(key) }
    }
}
