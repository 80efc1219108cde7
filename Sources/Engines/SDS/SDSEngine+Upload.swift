import CloudSim
import Kernel
import LocalStore

extension SDSEngine {
    /// The most items one upload request carries (CloudKit's 400-item limit).
    static let maxItemsPerUpload = 400

    /// Builds the next upload request of this run from the pending changes, or nil when
    /// nothing is left that this run has not tried yet.
    func makeUploadRequest(
        _ current: inout SyncRun,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) -> CloudRequest? {
        var batch = UploadBatch(sentKeys: [:], savedModels: [:], deletedNames: [], insertedNames: [])
        var saves: [RecordSave] = []
        var budget = Self.maxItemsPerUpload
        for name in context.syncData.pendingDeletions.keys.sorted() where budget > 0 {
            guard !current.attempted.contains(name) else { continue }
            batch.deletedNames.append(name)
            current.attempted.insert(name)
            budget -= 1
        }
        for id in context.syncData.pending.keys.sorted() where budget > 0 {
            guard let pending = context.syncData.pending[id],
                  let name = context.syncData.recordNames[id],
                  !current.attempted.contains(name),
                  let save = makeSave(of: id, name: name, pending: pending, context: context, effects: &effects)
            else { continue }
            saves.append(save)
            batch.sentKeys[id] = pending.keys
            batch.savedModels[name] = id
            if pending.isInsert { batch.insertedNames.append(name) }
            current.attempted.insert(name)
            budget -= 1
        }
        guard !saves.isEmpty || !batch.deletedNames.isEmpty else { return nil }
        current.batch = batch
        current.uploadRequests += 1
        effects.append(.trace(
            kind: "upload.batch",
            details: [TraceField("saves", .list(saves.map { .string($0.record.recordName) })),
                      TraceField("deletes", .list(batch.deletedNames.map { .string($0) }))],
            rules: []
        ))
        return .modifyRecords(
            scope: .privateDatabase,
            zone: appZone(context),
            saves: saves,
            deletes: batch.deletedNames,
            policy: .changedKeys,
            atomic: false
        )
    }

    /// The record of a model with its changed keys; values that are empty are left out
    /// (CFG-3), so clearing a value reaches iCloud as the key removed.
    private func makeSave(
        of id: ModelID,
        name: String,
        pending: PendingChange,
        context: EngineContext,
        effects: inout [EngineEffect]
    ) -> RecordSave? {
        guard let model = context.store.model(id), let entity = schema.entity(named: model.entity) else {
            return nil
        }
        var record = CloudRecord(
            recordType: entity.name,
            recordName: name,
            zone: appZone(context),
            changeTag: context.syncData.changeTags[name]
        )
        var changed: [String] = []
        var cleared: [String] = []
        for attribute in entity.synchronizedAttributes where pending.keys[attribute.name] != nil {
            changed.append(attribute.name)
            if let value = model.values[attribute.name] {
                record.fields[attribute.name] = RecordMapping.cloudValue(value, asset: attribute.isAsset)
            } else {
                cleared.append(attribute.name)
            }
        }
        for relationship in entity.synchronizedToOneRelationships where pending.keys[relationship.name] != nil {
            changed.append(relationship.name)
            if let target = model.toOne[relationship.name], let targetName = context.syncData.recordNames[target] {
                record.fields[relationship.name] = .reference(targetName)
            } else {
                cleared.append(relationship.name)
            }
        }
        if let parent = entity.parentRelationship, let target = model.toOne[parent.name] {
            record.parent = context.syncData.recordNames[target]
        }
        if pending.isInsert {
            // A new record carries only the keys that have values.
            changed = changed.filter { !cleared.contains($0) }
        }
        if !cleared.isEmpty {
            effects.append(.trace(
                kind: "upload.keys-cleared",
                details: [TraceField("record", .string(name)),
                          TraceField("keys", .list(cleared.map { .string($0) }))],
                rules: ["CFG-3"]
            ))
        }
        return RecordSave(record: record, changedKeys: changed.sorted())
    }

    /// Handles the answer to an upload: clears what was uploaded, keeps what changed again.
    func handleUploadAnswer(
        _ response: CloudResponse,
        _ current: inout SyncRun,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        guard let batch = current.batch else { return }
        current.batch = nil
        guard case .recordsModified(let results) = response else {
            if case .failure(let error) = response {
                abortRun(&current, error: error, context: &context, effects: &effects)
            }
            return
        }
        var retryError: CloudError?
        for result in results {
            switch result {
            case .saved(let record):
                context.syncData.changeTags[record.recordName] = record.changeTag
                guard let id = batch.savedModels[record.recordName] else { continue }
                if batch.insertedNames.contains(record.recordName),
                   record.creationTime != record.modificationTime {
                    // Another device uploaded this identity first: the changed keys were
                    // saved over its record, the last upload of a key winning.
                    effects.append(.trace(
                        kind: "upload.saved-over-existing",
                        details: [TraceField("record", .string(record.recordName))],
                        rules: ["ID-3"]
                    ))
                }
                clearUploaded(id, sent: batch.sentKeys[id] ?? [:], context: &context)
            case .deleted(let name):
                context.syncData.pendingDeletions[name] = nil
                context.syncData.changeTags[name] = nil
            case .failed(let name, let error):
                effects.append(.trace(
                    kind: "upload.item.failed",
                    details: [TraceField("record", .string(name)),
                              TraceField("error", .string(error.description))],
                    rules: []
                ))
                if error.code.isTransient || error.code == .zoneNotFound { retryError = error }
                if error.code == .zoneNotFound { context.syncData.zoneCreated = false }
            }
        }
        if let retryError {
            scheduleRetry(after: retryError, context: context, effects: &effects)
        } else {
            backoffFailures = 0
        }
    }

    private func clearUploaded(_ id: ModelID, sent: [String: Int64], context: inout EngineContext) {
        guard var pending = context.syncData.pending[id] else { return }
        pending.isInsert = false
        for (key, version) in sent.sorted(by: { $0.key < $1.key }) where pending.keys[key] == version {
            pending.keys[key] = nil
        }
        context.syncData.pending[id] = pending.keys.isEmpty ? nil : pending
    }
}
