import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One of the article's operations in flight, in memory only (NAIVE-5): the launch's setup,
/// a save or a delete of one record, or a download. A kill forgets it (NAIVE-14).
final class NaiveOperation {
    enum Kind: Equatable {
        /// NAIVE-2, NAIVE-3: the launch's zone and subscriptions, before its download.
        case setup
        case save
        case delete
        /// NAIVE-7: `fetchDatabaseChanges`, then each changed zone (NAIVE-8).
        case download
    }

    /// What started a download.
    enum Trigger: String {
        case launch
        case push
        case sync
    }

    /// What the operation does once it has passed its probe points.
    enum Step {
        /// Waiting for an answer or a retry timer.
        case wait
        /// Send the operation's request (a save's, a delete's, the database fetch).
        case send
        /// Send the request it sent last again: its retry came due (NAIVE-6).
        case resend
        /// A retry is due after this long (NAIVE-6).
        case scheduleRetry(SimTime)
        /// Store the page that arrived (NAIVE-8).
        case storePage
        /// The page is stored: fetch the next one, or end the zone.
        case afterPage
        /// Fetch the next changed zone, or end the download.
        case nextZone
        /// The operation is over.
        case finish
    }

    /// The setup's steps, in order (NAIVE-2, NAIVE-3).
    enum SetupStep {
        case fetchZone
        case createZone
        case fetchSubscription(Int)
        case saveSubscription(Int)
    }

    let number: Int
    let kind: Kind

    // Flow.
    /// Probe points still to pass before `next` runs.
    var probes: [String] = []
    var next: Step = .wait
    /// Stopped at a probe point, waiting for `.resume`.
    var isPaused = false
    /// Waiting for its retry timer (not running).
    var isWaitingForRetry = false
    /// The request it sent last: a retry sends it again (NAIVE-6).
    var lastRequest: CloudRequest?
    /// An answer that arrived while it was stopped at a probe point.
    var bufferedAnswer: CloudResponse?

    // Save, delete.
    var recordName = ""
    var entity = ""
    var model: ModelID?
    var fields: SortedMap<String, CloudValue> = [:]
    var changedKeys: [String] = []
    /// The values of the changed keys as the save captured them (NAIVEW-3).
    var captured: [String: AttributeValue?] = [:]
    /// The save that gave the model its record name: it creates the record.
    var isFirstSave = false

    // Setup.
    var setupStep: SetupStep = .fetchZone
    var waiter: WaiterID?

    // Download.
    var trigger: Trigger = .launch
    var zones: [ZoneID] = []
    var zoneIndex = 0
    var pageToken: ZoneChangeToken?
    var page: (records: [CloudRecord], token: ZoneChangeToken, moreComing: Bool)?
    /// Records the current zone fetch brought (NAIVEW-5).
    var zoneSeen: Set<String> = []
    var zoneStartedAt = SimTime.zero
    /// When the previous download of this launch began (NAIVEW-8).
    var previousDownloadStart: SimTime?

    init(number: Int, kind: Kind) {
        self.number = number
        self.kind = kind
    }

    /// The timer of its retry.
    var retryTimer: EngineTimer { EngineTimer("retry.\(number)") }

    var isUpload: Bool { kind == .save || kind == .delete }
}
