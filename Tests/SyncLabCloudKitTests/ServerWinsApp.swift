import CloudKit

/// A second app for the weakness watch, unlike the notes example in the answers it gives: a
/// fetched record replaces the local item and its waiting save, and when told, a failed change
/// is kept in the app's own queue (`hasPendingUntrackedChanges`) rather than the engine's.
final actor ServerWinsApp: CKSyncEngineDelegate {
    static let zoneID = CKRecordZone.ID(zoneName: "Items")

    private(set) var items: [String: String] = [:]
    /// Each item's last record from iCloud, whose system fields its next save carries.
    private var known: [String: CKRecord] = [:]
    /// The app's own queue of changes to send again.
    private(set) var untracked: [String] = []
    private let tracksFailuresItself: Bool
    private var engine: CKSyncEngine?

    init(tracksFailuresItself: Bool = false) {
        self.tracksFailuresItself = tracksFailuresItself
    }

    var syncEngine: CKSyncEngine {
        if let engine { return engine }
        var configuration = CKSyncEngine.Configuration(
            database: CKContainer.default().privateCloudDatabase, stateSerialization: nil,
            delegate: self)
        configuration.automaticallySync = false
        let made = CKSyncEngine(configuration)
        engine = made
        return made
    }

    func save(_ name: String, _ text: String) {
        items[name] = text
        syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: Self.zoneID))])
        syncEngine.state.add(pendingRecordZoneChanges: [
            .saveRecord(CKRecord.ID(recordName: name, zoneID: Self.zoneID)),
        ])
    }

    func delete(_ name: String) {
        items[name] = nil
        syncEngine.state.add(pendingRecordZoneChanges: [
            .deleteRecord(CKRecord.ID(recordName: name, zoneID: Self.zoneID)),
        ])
    }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        if case .sentRecordZoneChanges(let sent) = event {
            for record in sent.savedRecords { known[record.recordID.recordName] = record }
        }
        switch event {
        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications {
                let record = modification.record
                items[record.recordID.recordName] = record["text"] as? String
                known[record.recordID.recordName] = record
                syncEngine.state.remove(pendingRecordZoneChanges: [.saveRecord(record.recordID)])
            }
        case .sentRecordZoneChanges(let sent) where tracksFailuresItself:
            untracked += sent.failedRecordSaves.map(\.record.recordID.recordName)
            untracked += sent.failedRecordDeletes.keys.map(\.recordName).sorted()
            if !untracked.isEmpty { syncEngine.state.hasPendingUntrackedChanges = true }
        default:
            break
        }
    }

    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let items = items
        let known = known
        return await CKSyncEngine.RecordZoneChangeBatch(
            pendingChanges: syncEngine.state.pendingRecordZoneChanges
        ) { id in
            guard let text = items[id.recordName] else { return nil }
            let record = (known[id.recordName]?.copy() as? CKRecord)
                ?? CKRecord(recordType: "Item", recordID: id)
            record["text"] = text
            return record
        }
    }
}
