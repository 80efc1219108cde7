import SyncLabEngineKit

/// A notes app's sync engine on CKSyncEngine, as an app developer writes it: an actor that is
/// the engine's delegate, with a local database.
public actor NotesSyncEngine: SyncLabEngine {
    let database: LocalDatabase<NotesMetadata>

    public init(database: LocalDatabase<NotesMetadata>) {
        self.database = database
    }

    var zone: ZoneID { ZoneID(owner: database.account ?? "", name: "Notes") }

    // MARK: The app's saves

    public func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        var metadata = database.metadata
        var changes: [CKSyncEngine.PendingRecordZoneChange] = []
        for entry in transactions {
            for change in entry.changes {
                switch change {
                case .inserted(let id, let entity):
                    let name = metadata.recordNames[id] ?? "\(entity)-\(database.device)-\(id)"
                    metadata.recordNames[id] = name
                    metadata.models[name] = id
                    let keys = database.store.schema.entity(named: entity)?.synchronizedAttributes.map(\.name) ?? []
                    metadata.unsentKeys[name] = keys
                    changes.append(.saveRecord(RecordID(recordName: name, zoneID: zone)))
                case .updated(let id, _, let keys):
                    guard let name = metadata.recordNames[id] else { continue }
                    let unsent = metadata.unsentKeys[name] ?? []
                    metadata.unsentKeys[name] = unsent + keys.filter { !unsent.contains($0) }
                    changes.append(.saveRecord(RecordID(recordName: name, zoneID: zone)))
                case .deleted(let id, _, _):
                    guard let name = metadata.recordNames[id] else { continue }
                    metadata.unsentKeys[name] = nil
                    changes.append(.deleteRecord(RecordID(recordName: name, zoneID: zone)))
                }
            }
        }
        database.metadata = metadata
        database.saveMetadata()
        syncEngine.trace("local.changes", [("count", "\(changes.count)")], rules: ["NOTES-1", "NOTES-2"])
        if !metadata.zoneSaved {
            syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
        }
        syncEngine.state.add(pendingRecordZoneChanges: changes)
    }

    // MARK: CKSyncEngineDelegate

    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .stateUpdate(let update):
            database.metadata.stateSerialization = update.stateSerialization
            database.saveMetadata()
            syncEngine.trace("state.persisted", rules: ["NOTES-6"])
        case .fetchedRecordZoneChanges(let changes):
            apply(changes, syncEngine: syncEngine)
        case .sentDatabaseChanges(let sent):
            if sent.savedZones.contains(zone) {
                database.metadata.zoneSaved = true
                database.saveMetadata()
            }
        case .sentRecordZoneChanges(let sent):
            await handle(sent, syncEngine: syncEngine)
        case .accountChange, .fetchedDatabaseChanges, .willFetchChanges, .willFetchRecordZoneChanges,
             .didFetchRecordZoneChanges, .didFetchChanges, .willSendChanges, .didSendChanges:
            break
        }
    }

    public func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.contains($0.recordID) }
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { id in
            await self.recordToSave(id)
        }
    }

    // MARK: Records

    /// The note's record as it goes to the server: the last record the server returned (its
    /// change tag) with the local values, and the keys edited since.
    func recordToSave(_ id: RecordID) -> RecordSave? {
        let metadata = database.metadata
        guard let modelID = metadata.models[id.recordName], let model = database.store.model(modelID),
              let entity = database.store.schema.entity(named: model.entity) else { return nil }
        var record = metadata.lastKnownRecords[id.recordName]
            ?? CloudRecord(recordType: model.entity, recordName: id.recordName, zone: id.zoneID)
        for attribute in entity.synchronizedAttributes {
            record.fields[attribute.name] = model.values[attribute.name].map(NotesCodec.cloudValue)
        }
        return RecordSave(record: record, changedKeys: metadata.unsentKeys[id.recordName] ?? [])
    }

    /// NOTES-4, NOTES-5: fetched records and deletions, in one transaction.
    func apply(_ changes: CKSyncEngine.FetchedRecordZoneChanges, syncEngine: CKSyncEngine) {
        var metadata = database.metadata
        var transaction = Transaction()
        for record in changes.modifications {
            guard let entity = database.store.schema.entity(named: record.recordType) else { continue }
            metadata.lastKnownRecords[record.recordName] = record
            let unsent = metadata.unsentKeys[record.recordName] ?? []
            var values: [String: PropertyValue] = [:]
            for attribute in entity.synchronizedAttributes where !unsent.contains(attribute.name) {
                let value = record.fields[attribute.name].flatMap { NotesCodec.attributeValue($0, type: attribute.type) }
                values[attribute.name] = .attribute(value ?? (attribute.isOptional ? nil : attribute.defaultValue))
            }
            if let id = metadata.models[record.recordName], database.store.model(id) != nil {
                transaction.append(.update(id, values: values))
            } else {
                let id = database.makeModelID()
                metadata.models[record.recordName] = id
                metadata.recordNames[id] = record.recordName
                transaction.append(.insert(id, entity: entity.name, values: values))
            }
        }
        var dropped: [CKSyncEngine.PendingRecordZoneChange] = []
        for deletion in changes.deletions {
            let name = deletion.recordID.recordName
            metadata.lastKnownRecords[name] = nil
            metadata.unsentKeys[name] = nil
            if let id = metadata.models[name], database.store.model(id) != nil {
                transaction.append(.delete(id))
            }
            // The deletion wins: a save of the note still pending would find no note (the
            // provider answers nil, and CKSyncEngine keeps such a change pending for good).
            dropped.append(.saveRecord(deletion.recordID))
        }
        let pendingSaves = Set(syncEngine.state.pendingRecordZoneChanges)
        dropped = dropped.filter(pendingSaves.contains)
        if !dropped.isEmpty { syncEngine.state.remove(pendingRecordZoneChanges: dropped) }
        database.metadata = metadata
        do {
            try database.save(transaction)
            syncEngine.trace("fetched.applied", [
                ("modifications", "\(changes.modifications.count)"),
                ("deletions", "\(changes.deletions.count)"),
            ], rules: ["NOTES-4", "NOTES-5"])
        } catch {
            syncEngine.trace("fetched.refused", [("error", "\(error)")], rules: ["NOTES-4"])
        }
    }

    /// Saved records update their system fields; a conflict is resolved and sent again (NOTES-3).
    func handle(_ sent: CKSyncEngine.SentRecordZoneChanges, syncEngine: CKSyncEngine) async {
        var metadata = database.metadata
        var again: [CKSyncEngine.PendingRecordZoneChange] = []
        for record in sent.savedRecords {
            metadata.lastKnownRecords[record.recordName] = record
            // Keys whose local value is what the server now holds are sent.
            if let id = metadata.models[record.recordName], let model = database.store.model(id) {
                metadata.unsentKeys[record.recordName] = (metadata.unsentKeys[record.recordName] ?? []).filter {
                    record.fields[$0] != model.values[$0].map(NotesCodec.cloudValue)
                }
            } else {
                metadata.unsentKeys[record.recordName] = nil
            }
        }
        for failure in sent.failedRecordSaves {
            let id = RecordID(recordName: failure.record.recordName, zoneID: failure.record.zone)
            switch failure.error.code {
            case .serverRecordChanged:
                syncEngine.probe("notes.conflict")
                if let server = failure.error.serverRecord {
                    metadata.lastKnownRecords[id.recordName] = server
                }
                again.append(.saveRecord(id))
                syncEngine.trace("conflict.resolved", [("record", id.recordName)], rules: ["NOTES-3"])
            case .zoneNotFound:
                metadata.zoneSaved = false
                metadata.lastKnownRecords[id.recordName] = nil
                syncEngine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
                again.append(.saveRecord(id))
            case .unknownItem:
                metadata.lastKnownRecords[id.recordName] = nil
                again.append(.saveRecord(id))
                syncEngine.trace("deleted-record.saved-again", [("record", id.recordName)], rules: ["NOTES-7"])
            default:
                break
            }
        }
        database.metadata = metadata
        database.saveMetadata()
        syncEngine.state.add(pendingRecordZoneChanges: again)
    }
}
