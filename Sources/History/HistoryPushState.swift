import CloudSim
import SyncContract

/// The state of a push phase (HIS-17) or of a rebuild's upload: its requests, one at a time.
final class HistoryPushState {
    var requests: [HistoryPushRequest] = []
    var requestIndex = 0
    var failure: (error: HistorySyncError, cloud: CloudError)?
    /// Records this push wrote before it failed (HISW-2).
    var writtenRecords: [String] = []
    /// The phase sent at least one request (each answer passed `upload.done`).
    var sentRequest = false
}

/// The state of a rebuild phase (HIS-27, HIS-28): the zone request, then the upload.
final class HistoryRebuildState {
    /// HIS-27: the sync data was cleared first.
    let purge: Bool
    /// The zone request is in flight: its answer comes before the upload's.
    var zonePending = false
    let upload = HistoryPushState()

    init(purge: Bool) {
        self.purge = purge
    }

    /// The rule of the rebuild.
    var rule: String { purge ? "HIS-27" : "HIS-28" }
}
