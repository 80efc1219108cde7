import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// SYNC-1: turns the app's saved transactions into pending changes, per model and key.
    func recordLocalChanges(context: inout SDSContext) {
        let entries = context.store.historySlice(after: context.syncData.historyPosition)
        // Each entry and change read in place (`entries[index]`): a loop's element was a copy.
        for index in entries.indices {
            context.syncData.historyPosition = entries[index].position
            // The engine's own writes, and saves made while nothing observed the store (found
            // later by ADOPT-1), are not changes to record.
            let author = entries[index].author
            if author == Self.author || author == Self.unobservedAuthor { continue }
            for change in entries[index].changes.indices {
                record(entries[index].changes[change], context: &context)
            }
        }
    }

    /// `recordLocalChanges` after the engine's own save (`ownSave`, nil when it changed
    /// nothing). When the save's entry directly follows the last recorded one (positions
    /// count up by one), it is the only entry to read, and of the engine's own author, which
    /// is not recorded: the position moves past it without copying the history out of the
    /// store, on every downloaded page.
    func recordLocalChanges(afterOwnSave ownSave: HistoryEntry?, context: inout SDSContext) {
        if let ownSave, ownSave.author == Self.author,
           ownSave.position == context.syncData.historyPosition + 1 {
            context.syncData.historyPosition = ownSave.position
            return
        }
        recordLocalChanges(context: &context)
    }

    /// SYNC-1: each change of the app's history becomes pending, by kind.
    private func record(_ change: HistoryChange, context: inout SDSContext) {
        switch change {
        case .inserted(let id, let entityName):
            recordInsert(id, entityName: entityName, context: &context)
        case .updated(let id, let entityName, let keys):
            recordUpdate(id, entityName: entityName, keys: keys, context: &context)
        case .deleted(let id, let entityName, _):
            recordDeletion(id, entityName: entityName, context: &context)
        }
    }

    /// SYNC-1: an inserted model gets its record name and every key pending.
    private func recordInsert(_ id: ModelID, entityName: String, context: inout SDSContext) {
        guard let entity = synchronizedEntity(entityName) else { return }
        let name = assignRecordName(to: id, entity: entity, context: &context)
        // Every key at the next versions, in the keys' order (as `nextVersion` gives them
        // one by one): the entity's offsets moved up, in buckets laid out once per entity.
        let firstVersion = context.syncData.editVersion + 1
        context.syncData.editVersion += Int64(entity.synchronizedKeys.count)
        let pending = PendingChange(
            isInsert: true,
            keys: entity.synchronizedKeyOffsets.mapValues { firstVersion + $0 })
        context.syncData.pending[id] = pending
        effects.addTrace(detailed: context.isTracing,
            kind: "change.recorded",
            details: [TraceField("model", .string(name)),
                TraceField("change", .string("insert"))],
            rules: ["SYNC-1"]
        )
    }

    /// SYNC-1, CFG-1, SCHEMA-4: an update's synchronized keys become pending at new versions.
    private func recordUpdate(
        _ id: ModelID, entityName: String, keys: [String], context: inout SDSContext
    ) {
        guard let entity = synchronizedEntity(entityName) else { return }
        let synchronized = entity.synchronizedKeys
        // Usually every key is synchronized: the list is then kept as it is (no new array).
        let kept = keys.allSatisfy { synchronized.contains($0) }
            ? keys : keys.filter { synchronized.contains($0) }
        if kept.count < keys.count {
            let skipped = keys.filter { !synchronized.contains($0) }
            effects.addTrace(detailed: context.isTracing,
                kind: "change.not-synchronized",
                details: [TraceField("keys", .list(skipped.map { .string($0) }))],
                rules: ["CFG-1"]
            )
        }
        guard !kept.isEmpty else { return }
        if !entity.identity.isEmpty, kept.contains(where: { entity.identity.contains($0) }) {
            renameForIdentityChange(id, entity: entity, context: &context)
        }
        // What the change needs from the sync data first; then the change is changed in
        // place (PendingChanges.modify: no copy of its keys).
        let isNewRecord = context.syncData.recordName(of: id).isNil
        if isNewRecord {
            _ = assignRecordName(to: id, entity: entity, context: &context)
        }
        var previousParent: String?
        if let parent = entity.parentRelationship, kept.contains(parent.name),
           let name = context.syncData.recordName(of: id) {
            previousParent = context.syncData.parents[name]
        }
        addPendingKeys(kept, to: id, isNewRecord: isNewRecord,
            previousParent: previousParent, context: &context)
        if let name = context.syncData.recordName(of: id),
           !context.syncData.rejected[name].isNil {
            context.syncData.rejected[name] = nil
            effects.addTrace(detailed: context.isTracing,
                kind: "rejected.changed",
                details: [TraceField("record", .string(name))],
                rules: ["SCHEMA-4"]
            )
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "change.recorded",
            details: [TraceField("model", .string(context.syncData.recordName(of: id) ?? "")),
                      TraceField("keys", .list(kept.map { .string($0) }))],
            rules: ["SYNC-1"]
        )
    }

    /// The updated keys' versions go into the model's pending change, in place.
    private func addPendingKeys(
        _ kept: [String], to id: ModelID, isNewRecord: Bool, previousParent: String?,
        context: inout SDSContext
    ) {
        // The keys' versions, as `nextVersion` would give them one by one.
        let firstVersion = context.syncData.editVersion + 1
        context.syncData.editVersion += Int64(kept.count)
        context.syncData.pending.modify(id) { pending in
            if isNewRecord { pending.isInsert = true }
            if pending.keys.isEmpty {
                // A model without pending keys: its map made from the pairs at their
                // number (specialized code), not grown key by key from nothing.
                pending.keys = Dictionary(
                    zip(kept, firstVersion ..< firstVersion + Int64(kept.count)),
                    uniquingKeysWith: { _, later in later })
            } else {
                for (offset, key) in kept.enumerated() {
                    pending.keys[key] = firstVersion + Int64(offset)
                }
            }
            if pending.isAdoption {
                pending.adoptionEdits = Array(Set(pending.adoptionEdits).union(kept)).sorted()
            }
            if let previousParent, !pending.movedFrom.contains(previousParent) {
                // ERR-6 / LIM-5: the previous parent's record still references this one.
                pending.movedFrom.append(previousParent)
            }
        }
    }

    /// DEL-1: a deleted model with a record leaves a pending deletion of it.
    private func recordDeletion(_ id: ModelID, entityName: String, context: inout SDSContext) {
        context.syncData.pending[id] = nil
        guard let name = context.syncData.recordName(of: id) else { return }
        context.syncData.unbind(id)
        context.syncData.pendingDeletions[name] = PendingDeletion(recordName: name,
            recordType: entityName)
        effects.addTrace(detailed: context.isTracing,
            kind: "deletion.recorded",
            details: [TraceField("record", .string(name))],
            rules: ["DEL-1"]
        )
    }

    private func synchronizedEntity(_ name: String) -> SDSEntity? {
        guard let entity = recordingEntities.named(name) else { return nil }
        guard entity.isSynchronized else {
            effects.addTrace(detailed: true,
                kind: "change.not-synchronized",
                details: [TraceField("entity", .string(name))],
                rules: ["CFG-1"]
            )
            return nil
        }
        return entity
    }

    private func nextVersion(_ context: inout SDSContext) -> Int64 {
        context.syncData.editVersion += 1
        return context.syncData.editVersion
    }

    /// ID-1: names a model's record by its identity values, or randomly without them.
    @discardableResult
    func assignRecordName(to id: ModelID, entity: SDSEntity, context: inout SDSContext) -> String {
        if let existing = context.syncData.recordName(of: id) { return existing }
        var name: String
        if let identityName = identityRecordName(of: id, entity: entity, store: context.store) {
            name = identityName
            effects.addTrace(detailed: context.isTracing,
                kind: "record.named",
                details: [TraceField("record", .string(name))],
                rules: ["ID-1"]
            )
            if let other = context.syncData.model(forRecord: name), other != id,
               context.store.contains(other) {
                name = context.makeRandomRecordName()
                effects.addTrace(detailed: context.isTracing,
                    kind: "record.named.duplicate-identity",
                    details: [TraceField("record", .string(name))],
                    rules: ["ID-5"]
                )
            }
        } else {
            name = context.makeRandomRecordName()
        }
        context.syncData.bind(id, to: name)
        return name
    }

    /// The `<Entity>.<SHA-256>` name of a model with every identity value, else nil.
    func identityRecordName(of id: ModelID, entity: SDSEntity, store: Store) -> String? {
        guard !entity.identity.isEmpty, let model = store.model(id) else { return nil }
        var values: [IdentityValue] = []
        for attribute in entity.identity {
            guard let value = model.values[attribute] else { return nil }
            values.append(RecordMapping.identityValue(value))
        }
        return RecordName.identityName(entity: entity.name, values: values)
    }

    /// ID-4: an identity value changed. The record of the old values is deleted (unless
    /// another model takes those values in the same save), the model is uploaded as a new
    /// record, and records that reference it are uploaded again to reference the new one.
    private func renameForIdentityChange(
        _ id: ModelID,
        entity: SDSEntity,
        context: inout SDSContext
    ) {
        guard let oldName = context.syncData.recordName(of: id) else { return }
        let newName = identityRecordName(of: id, entity: entity, store: context.store)
        guard newName != oldName else { return }
        context.syncData.unbind(id)
        let heir = context.store.models(of: entity.name).first { other in
            other.id != id && context.syncData.recordName(of: other.id) == nil
                && identityRecordName(of: other.id, entity: entity, store: context.store) == oldName
        }
        if let heir {
            context.syncData.bind(heir.id, to: oldName)
        } else if context.syncData.changeTag(of: oldName) != nil
            || context.syncData.pending[id]?.isInsert != true {
            context.syncData.pendingDeletions[oldName] = PendingDeletion(recordName: oldName,
                recordType: entity.name)
        }
        let name = assignRecordName(to: id, entity: entity, context: &context)
        var pending = context.syncData.pending[id] ?? PendingChange()
        pending.isInsert = true
        for key in entity.synchronizedKeys { pending.keys[key] = nextVersion(&context) }
        context.syncData.pending[id] = pending
        var referencing: [TraceValue] = []
        for model in context.store.models {
            guard let other = entities.named(model.entity) else { continue }
            for relationship in other.synchronizedToOneRelationships
                where model.toOne[relationship.name] == id {
                var change = context.syncData.pending[model.id] ?? PendingChange()
                change.keys[relationship.name] = nextVersion(&context)
                context.syncData.pending[model.id] = change
                referencing.append(.string(context.syncData.recordName(of: model.id)
                    ?? model.id.description))
            }
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "identity.changed",
            details: [TraceField("oldRecord", .string(oldName)),
                TraceField("newRecord", .string(name)),
                      TraceField("oldRecordTakenBy",
                          heir.map { .string($0.id.description) } ?? .null),
                      TraceField("referencingUploadedAgain", .list(referencing))],
            rules: ["ID-4"]
        )
    }
}
