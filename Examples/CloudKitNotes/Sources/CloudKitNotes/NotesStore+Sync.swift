import CloudKit
import Foundation
import os.log

extension NotesStore: CKSyncEngineDelegate {
    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        Self.log.debug("handling \(event)")
        switch event {
        case .stateUpdate(let update):
            stored.state = update.stateSerialization
            try? persist()
        case .accountChange(let change):
            handleAccountChange(change)
        case .fetchedDatabaseChanges(let changes):
            if changes.deletions.contains(where: { $0.zoneID == Note.zoneID }) {
                stored.notes = [:]
                try? persist()
            }
        case .fetchedRecordZoneChanges(let changes):
            applyFetched(changes)
        case .sentRecordZoneChanges(let sent):
            handleSent(sent)
        default:
            break
        }
    }

    public func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        let notes = stored.notes
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { recordID in
            guard let note = notes[recordID.recordName] else {
                syncEngine.state.remove(pendingRecordZoneChanges: [.saveRecord(recordID)])
                return nil
            }
            return note.record()
        }
    }

    func applyFetched(_ changes: CKSyncEngine.Event.FetchedRecordZoneChanges) {
        var notes = stored.notes
        for modification in changes.modifications {
            let record = modification.record
            let id = record.recordID.recordName
            var note = notes[id] ?? Note(id: id, text: "", modified: .distantPast)
            note.merge(record)
            notes[id] = note
        }
        for deletion in changes.deletions { notes[deletion.recordID.recordName] = nil }
        stored.notes = notes
        try? persist()
    }

    func handleSent(_ sent: CKSyncEngine.Event.SentRecordZoneChanges) {
        var notes = stored.notes
        var retry: [CKSyncEngine.PendingRecordZoneChange] = []
        var zones: [CKSyncEngine.PendingDatabaseChange] = []
        for record in sent.savedRecords { notes[record.recordID.recordName]?.lastKnownRecord = record }
        for failure in sent.failedRecordSaves {
            let id = failure.record.recordID
            switch failure.error.code {
            case .serverRecordChanged:
                if let server = failure.error.serverRecord { notes[id.recordName]?.merge(server) }
                retry.append(.saveRecord(id))
            case .zoneNotFound:
                zones.append(.saveZone(CKRecordZone(zoneID: id.zoneID)))
                notes[id.recordName]?.lastKnownRecord = nil
                retry.append(.saveRecord(id))
            case .unknownItem:
                notes[id.recordName]?.lastKnownRecord = nil
                retry.append(.saveRecord(id))
            default:
                Self.log.error("saving \(id) failed: \(failure.error)")
            }
        }
        stored.notes = notes
        try? persist()
        syncEngine.state.add(pendingDatabaseChanges: zones)
        syncEngine.state.add(pendingRecordZoneChanges: retry)
    }

    func handleAccountChange(_ change: CKSyncEngine.Event.AccountChange) {
        switch change.changeType {
        case .signIn:
            syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: Note.zoneID))])
            syncEngine.state.add(pendingRecordZoneChanges: stored.notes.values.sorted { $0.id < $1.id }.map { .saveRecord($0.recordID) })
        case .switchAccounts, .signOut:
            stored = Stored()
            try? persist()
            engine = nil
        }
    }
}
