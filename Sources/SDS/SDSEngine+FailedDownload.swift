import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// SYNC-6: after a failed download the engine does not know which records other devices
    /// deleted, so before uploading edits it asks which of their records still exist.
    func existenceCheckRequest(_ current: SyncRun, context: SDSContext) -> CloudRequest? {
        let upload = current.upload
        guard current.downloadFailed, !upload.existenceChecked else { return nil }
        upload.existenceChecked = true
        var names: [String] = []
        for id in context.syncData.pending.keys.sorted() {
            guard let pending = context.syncData.pending[id], !pending.isInsert,
                  let name = context.syncData.recordName(of: id),
                  zone(ofRecord: name, model: id, context: context) == appZone(context) else {
                      continue
                  }
            names.append(name)
        }
        guard !names.isEmpty else { return nil }
        upload.existenceCheckInFlight = true
        upload.uploadRequests += 1
        return .fetchRecords(scope: .privateDatabase, zone: appZone(context),
            names: Array(names.prefix(Self.maxItemsPerUpload)))
    }

    /// Edits of records that are gone are not uploaded now (an edit never recreates a
    /// record): they wait for the next download, which brings the deletion (SYNC-3).
    func handleExistenceCheckAnswer(_ response: CloudResponse, _ current: SyncRun) -> Bool {
        let upload = current.upload
        guard upload.existenceCheckInFlight else { return false }
        upload.existenceCheckInFlight = false
        guard case .recordsFetched(let results) = response else { return true }
        var gone: [String] = []
        for case .failed(let name, let error) in results where error.code == .unknownItem {
            gone.append(name)
            upload.attempted.insert(name)
        }
        effects.addTrace(detailed: true,
            kind: "upload.existence-checked",
            details: [TraceField("gone", .list(gone.map { .string($0) }))],
            rules: gone.isEmpty ? [] : ["SYNC-6"]
        )
        return true
    }
}
