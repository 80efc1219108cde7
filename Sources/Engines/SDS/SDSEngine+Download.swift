import CloudSim
import Kernel
import LocalStore

extension SDSEngine {
    /// Stores one downloaded page in a single transaction, as the engine's own author.
    ///
    /// SYNC-4: pending local keys win over downloaded values; SYNC-3: a downloaded deletion
    /// discards the model's pending edit; ID-2: unknown records with a local identity twin
    /// are given to that model.
    func applyPage(_ page: DownloadPage, context: inout EngineContext, effects: inout [EngineEffect]) {
        var transaction = Transaction()
        var inserted: [String: ModelID] = [:]
        var applied: [(CloudRecord, ModelID, EntityDescription)] = []
        for record in page.records {
            guard let entity = schema.entity(named: record.recordType), entity.isSynchronized else {
                effects.append(.trace(
                    kind: "download.record.skipped",
                    details: [TraceField("record", .string(record.recordName)),
                              TraceField("reason", .string("entity not synchronized"))],
                    rules: ["CFG-1"]
                ))
                continue
            }
            context.syncData.changeTags[record.recordName] = record.changeTag
            context.syncData.parents[record.recordName] = record.parent
            if context.syncData.pendingDeletions[record.recordName] != nil {
                // The local deletion is not uploaded yet; it wins over the downloaded record.
                effects.append(.trace(
                    kind: "download.record.deleted-locally",
                    details: [TraceField("record", .string(record.recordName))],
                    rules: ["SYNC-4"]
                ))
                continue
            }
            if let existing = context.syncData.models[record.recordName],
               context.store.model(existing) != nil {
                applied.append((record, existing, entity))
            } else if let twin = valueTwin(of: record, entity: entity, context: context) {
                context.syncData.unbind(twin)
                context.syncData.bind(twin, to: record.recordName)
                context.syncData.pending[twin] = nil
                effects.append(.trace(
                    kind: "download.value-matched",
                    details: [TraceField("record", .string(record.recordName))],
                    rules: valueMatchingRules(context)
                ))
                applied.append((record, twin, entity))
            } else if let twin = identityTwin(of: record, entity: entity, context: context) {
                context.syncData.bind(twin, to: record.recordName)
                effects.append(.trace(
                    kind: "download.identity-matched",
                    details: [TraceField("record", .string(record.recordName))],
                    rules: ["ID-2"]
                ))
                applied.append((record, twin, entity))
            } else {
                let id = context.store.makeModelID()
                inserted[record.recordName] = id
                context.syncData.bind(id, to: record.recordName)
                transaction.append(.insert(id, entity: entity.name, values: [:]))
                applied.append((record, id, entity))
            }
        }
        for (record, id, entity) in applied {
            let isNew = inserted[record.recordName] != nil
            let values = downloadedValues(record, model: id, entity: entity, isNew: isNew, context: context, effects: &effects)
            if !values.isEmpty { transaction.append(.update(id, values: values)) }
        }
        for deletion in page.deletions {
            applyDeletion(deletion, to: &transaction, context: &context, effects: &effects)
        }
        save(transaction, context: &context, effects: &effects)
    }

    /// The values of a downloaded record the model takes: every synchronized key the model
    /// has no pending change of (SYNC-4); a key the record lacks clears the value (CFG-3).
    private func downloadedValues(
        _ record: CloudRecord,
        model id: ModelID,
        entity: EntityDescription,
        isNew: Bool,
        context: EngineContext,
        effects: inout [EngineEffect]
    ) -> [String: PropertyValue] {
        let pendingKeys = context.syncData.pending[id]?.keys ?? [:]
        let current = context.store.model(id)
        var values: [String: PropertyValue] = [:]
        var kept: [String] = []
        for attribute in entity.synchronizedAttributes {
            if pendingKeys[attribute.name] != nil {
                kept.append(attribute.name)
                continue
            }
            let downloaded = record.fields[attribute.name].flatMap {
                RecordMapping.attributeValue($0, type: attribute.type)
            }
            if isNew || current?.values[attribute.name] != downloaded {
                if downloaded == nil && !attribute.isOptional && attribute.defaultValue != nil && isNew {
                    continue
                }
                values[attribute.name] = .attribute(downloaded)
            }
        }
        for relationship in entity.synchronizedToOneRelationships {
            if pendingKeys[relationship.name] != nil {
                kept.append(relationship.name)
                continue
            }
            var target: ModelID?
            if case .reference(let name)? = record.fields[relationship.name] {
                target = context.syncData.models[name]
            }
            if isNew || current?.toOne[relationship.name] != target {
                values[relationship.name] = .relationship(target)
            }
        }
        if !kept.isEmpty {
            effects.append(.trace(
                kind: "download.local-keys-kept",
                details: [TraceField("record", .string(record.recordName)),
                          TraceField("keys", .list(kept.sorted().map { .string($0) }))],
                rules: ["SYNC-4"]
            ))
        }
        return values
    }

    /// ID-2: a saved local model without a record that has the record's identity values.
    private func identityTwin(of record: CloudRecord, entity: EntityDescription, context: EngineContext) -> ModelID? {
        guard !entity.identity.isEmpty else { return nil }
        var wanted: [String: AttributeValue] = [:]
        for name in entity.identity {
            guard let attribute = entity.attribute(named: name),
                  let field = record.fields[name],
                  let value = RecordMapping.attributeValue(field, type: attribute.type) else { return nil }
            wanted[name] = value
        }
        for model in context.store.models(of: entity.name) {
            let matches = entity.identity.allSatisfy { model.values[$0] == wanted[$0] }
            guard matches else { continue }
            guard let bound = context.syncData.recordNames[model.id] else { return model.id }
            if context.syncData.changeTags[bound] == nil { return model.id }
        }
        return nil
    }

    /// ADOPT-4, LIFE-3, DEL-3: during a download from scratch, a model without an identity
    /// that waits to be adopted and has exactly the record's values is given that record,
    /// instead of being uploaded as a duplicate. A model with changes of its own does not match.
    private func valueTwin(of record: CloudRecord, entity: EntityDescription, context: EngineContext) -> ModelID? {
        guard entity.identity.isEmpty, context.syncData.zoneToken == nil || context.syncData.needsFullDownload else {
            return nil
        }
        for model in context.store.models(of: entity.name) {
            guard let pending = context.syncData.pending[model.id], pending.isAdoption,
                  let name = context.syncData.recordNames[model.id],
                  context.syncData.changeTags[name] == nil, name != record.recordName else { continue }
            let matches = entity.synchronizedAttributes.allSatisfy { attribute in
                let downloaded = record.fields[attribute.name].flatMap {
                    RecordMapping.attributeValue($0, type: attribute.type)
                }
                return downloaded == model.values[attribute.name]
            }
            if matches { return model.id }
        }
        return nil
    }

    private func valueMatchingRules(_ context: EngineContext) -> [String] {
        [context.syncData.valueMatchingRule]
    }

    private func applyDeletion(
        _ deletion: RecordDeletion,
        to transaction: inout Transaction,
        context: inout EngineContext,
        effects: inout [EngineEffect]
    ) {
        context.syncData.changeTags[deletion.recordName] = nil
        context.syncData.pendingDeletions[deletion.recordName] = nil
        guard let id = context.syncData.models[deletion.recordName] else { return }
        context.syncData.unbind(id)
        guard context.store.model(id) != nil else { return }
        var rules: [String] = []
        if let pending = context.syncData.pending[id], !pending.keys.isEmpty {
            rules.append("SYNC-3")
        }
        context.syncData.pending[id] = nil
        transaction.append(.delete(id))
        effects.append(.trace(
            kind: "download.deleted",
            details: [TraceField("record", .string(deletion.recordName))],
            rules: rules
        ))
    }

    /// Saves the page's transaction; models the engine deletes cascade through delete rules.
    private func save(_ transaction: Transaction, context: inout EngineContext, effects: inout [EngineEffect]) {
        guard !transaction.isEmpty else { return }
        do {
            _ = try context.store.save(transaction, author: Self.author)
        } catch {
            effects.append(.trace(
                kind: "download.store-rejected",
                details: [TraceField("error", .string(error.description))],
                rules: []
            ))
        }
        forgetCascadedModels(context: &context)
        recordLocalChanges(context: &context, effects: &effects)
    }

    /// Models that vanished from the store with the engine's own deletions (delete rules)
    /// lose their bindings and pending changes: the cloud cascades the same way.
    private func forgetCascadedModels(context: inout EngineContext) {
        let bound = context.syncData.recordNames.keys.sorted()
        for id in bound where context.store.model(id) == nil {
            context.syncData.unbind(id)
            context.syncData.pending[id] = nil
        }
    }
}
