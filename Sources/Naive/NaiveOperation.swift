import CloudSim
import Kernel
import LocalStore
import SyncContract

/// One of the article's operations in flight, in memory only (NAIVE-5): the launch's setup,
/// a save or a delete of one record, or a download. A kill forgets it (NAIVE-14).
final class NaiveOperation {
    /// What the operation does, each case with exactly its own payload.
    enum Job {
        /// NAIVE-2, NAIVE-3: the launch's zone and subscriptions, before its download.
        case setup(NaiveSetup)
        case save(NaiveSave)
        case delete(recordName: String, entity: String)
        /// NAIVE-7: `fetchDatabaseChanges`, then each changed zone (NAIVE-8).
        case download(NaiveDownload)
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
    let job: Job

    // Flow, whatever the job.
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

    init(number: Int, job: Job) {
        self.number = number
        self.job = job
    }

    /// The timer of its retry.
    var retryTimer: EngineTimer { EngineTimer("retry.\(number)") }

    var isUpload: Bool {
        switch job {
        case .save, .delete: return true
        case .setup, .download: return false
        }
    }

    /// The record a save or a delete uploads; nil for the other jobs.
    var recordName: String? {
        switch job {
        case .save(let save): return save.recordName
        case .delete(let recordName, _): return recordName
        case .setup, .download: return nil
        }
    }

    /// How the diagnostic ledger names an upload: `save` or `delete`.
    var ledgerKind: String {
        if case .save = job { return "save" }
        return "delete"
    }

    /// The setup's state; a setup step runs only for the setup.
    var setup: NaiveSetup {
        guard case .setup(let state) = job else {
            preconditionFailure("naive: a setup step for operation \(number), not the setup")
        }
        return state
    }

    /// The download's state; a download step runs only for a download.
    var download: NaiveDownload {
        guard case .download(let state) = job else {
            preconditionFailure("naive: a download step for operation \(number), not a download")
        }
        return state
    }
}

/// The launch's setup (NAIVE-2, NAIVE-3): the step it is at, and the launch's waiter, which
/// its download takes over.
final class NaiveSetup {
    var step: NaiveOperation.SetupStep
    let waiter: WaiterID?

    init(step: NaiveOperation.SetupStep, waiter: WaiterID?) {
        self.step = step
        self.waiter = waiter
    }
}

/// A save of one record, as the app's save built it (NAIVE-4).
struct NaiveSave {
    let recordName: String
    let entity: String
    let fields: SortedMap<String, CloudValue>
    let changedKeys: [String]
    /// The values of the changed keys as the save captured them (NAIVEW-3).
    let captured: [String: AttributeValue?]
    /// The save that gave the model its record name: it creates the record.
    let isFirstSave: Bool
}

/// A download (NAIVE-7, NAIVE-8): its changed zones, the zone fetch and page in hand.
final class NaiveDownload {
    let trigger: NaiveOperation.Trigger
    var waiter: WaiterID?
    /// When the previous download of this launch began (NAIVEW-8).
    let previousDownloadStart: SimTime?
    var zones: [ZoneID] = []
    var zoneIndex = 0
    var pageToken: ZoneChangeToken?
    /// A page fetched and not stored yet.
    var page: (records: [CloudRecord], token: ZoneChangeToken, moreComing: Bool)?
    /// Records the current zone fetch brought (NAIVEW-5).
    var zoneSeen: Set<String> = []
    var zoneStartedAt = SimTime.zero

    init(trigger: NaiveOperation.Trigger, waiter: WaiterID?, previousDownloadStart: SimTime?) {
        self.trigger = trigger
        self.waiter = waiter
        self.previousDownloadStart = previousDownloadStart
    }
}
