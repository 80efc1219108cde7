import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

/// A page being stored: its one transaction (HIS-21) and what it did, for the trace.
struct HistoryPageStore {
    let zone: ZoneID
    let shared: Bool
    /// The keys of each model that unpushed local edits changed (HISW-3).
    let unpushed: [ModelID: Set<String>]
    var transaction = Transaction()
    var inserted: [(ModelID, String)] = []
    var updated = 0
    var unchanged = 0
    var deleted = 0
    var overwritten: [String] = []
    /// The page's new models by record name: a child finds a parent from the same page.
    var newModels: [String: ModelID] = [:]
    /// The identity values of the page's new models with one (HISW-11), and their record.
    var newIdentities: [(entity: String, values: [AttributeValue?], recordName: String)] = []
    /// The records the page's save deleted through a delete rule, not by the page (HIS-DR-1).
    var cascaded: [String] = []
}

extension HistoryEngine {
    /// HIS-22 step 3: the page's upserts and deletions, one save as the sync author (HIS-21).
    func storePage(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        guard let page = pull.page else {
            preconditionFailure("history: a page stored that was never fetched")
        }
        var store = HistoryPageStore(zone: pull.changedZones[pull.zoneIndex],
            shared: pull.scope == .sharedDatabase, unpushed: unpushedKeys(context: context))
        for record in page.records {
            storeRecord(record, into: &store, context: &context)
        }
        for deletion in page.deletions {
            guard let id = context.syncData.bindings.model(named: deletion.recordName),
                context.store.contains(id) else { continue }
            store.transaction.append(.delete(id))
            context.syncData.systemFields[id] = nil
            store.deleted += 1
        }
        savePage(&store, deletions: page.deletions.map(\.recordName), context: &context)
        tracePageStored(store, hasRecords: !page.records.isEmpty, context: context)
        pass(["download.page.stored"], then: .afterPage, operation, context: &context)
    }

    /// One record of the page: its uploaded values decoded, then its model updated or inserted.
    private func storeRecord(_ record: CloudRecord, into store: inout HistoryPageStore,
        context: inout HistoryContext) {
        guard let entity = schema.entity(named: record.recordType), entity.isSynchronized else {
            return
        }
        var values: [String: PropertyValue] = [:]
        for attribute in HistoryRecords.uploadedAttributes(of: entity) {
            guard let field = record.fields[attribute.name],
                  let value = HistoryRecords.values.attributeValue(field,
                      type: attribute.type) else { continue }
            values[attribute.name] = .attribute(value)
        }
        if let id = context.syncData.bindings.model(named: record.recordName),
            let model = context.store.model(id) {
            updateModel(id, model, from: record, entity: entity, values: values, into: &store,
                context: &context)
        } else {
            insertModel(from: record, entity: entity, values: &values, into: &store,
                context: &context)
        }
    }

    /// A record of a local model: only the values that differ are written, unpushed edits
    /// they overwrite are noted (HISW-3).
    private func updateModel(_ id: ModelID, _ model: Model, from record: CloudRecord,
        entity: EntityDescription, values: [String: PropertyValue],
        into store: inout HistoryPageStore, context: inout HistoryContext) {
        if let known = context.syncData.systemFields[id]?.changeTag,
            known == record.changeTag {
            // The version this device wrote or fetched last: nothing to write.
            store.unchanged += 1
            return
        }
        var changes: [String: PropertyValue] = [:]
        for key in values.keys.sorted() {
            guard case .attribute(let value)? = values[key],
                model.values[key] != value else { continue }
            changes[key] = values[key]
            if store.unpushed[id]?.contains(key) ?? false {
                store.overwritten.append("\(record.recordName).\(key)")
            }
        }
        // HIS-3: a cleared value is a key the record leaves out; an optional value
        // the record does not carry is cleared here too, unless its type never
        // reaches iCloud (HISW-9), so the record cannot carry it.
        for attribute in HistoryRecords.uploadedAttributes(of: entity)
            where attribute.isOptional && record.fields[attribute.name] == nil {
            guard let held = model.values[attribute.name],
                HistoryRecords.values.cloudValue(held) != nil else { continue }
            changes[attribute.name] = .attribute(nil)
            if store.unpushed[id]?.contains(attribute.name) ?? false {
                store.overwritten.append("\(record.recordName).\(attribute.name)")
            }
        }
        link(record, id: id, entity: entity, model: model, into: &changes,
            newModels: store.newModels, context: context)
        if !changes.isEmpty {
            store.transaction.append(.update(id, values: changes))
            store.updated += 1
        }
        noteSystemFields(record, id: id, shared: store.shared, zone: store.zone,
            context: &context)
    }

    /// A record new to this device: a model with its defaults, or skipped when a required
    /// value is missing (HIS-21).
    private func insertModel(from record: CloudRecord, entity: EntityDescription,
        values: inout [String: PropertyValue], into store: inout HistoryPageStore,
        context: inout HistoryContext) {
        for attribute in entity.attributes where values[attribute.name] == nil
            && !attribute.isOptional {
            if let fallback = attribute.defaultValue {
                values[attribute.name] = .attribute(fallback)
            }
        }
        let complete = entity.attributes.allSatisfy {
            $0.isOptional || values[$0.name] != nil
        }
        guard complete else {
            effects.append(.trace(kind: "pull.record-skipped", details: [
                TraceField("recordName", .string(record.recordName)),
                TraceField("reason", .string("a required value is missing")),
            ], rules: ["HIS-21"]))
            return
        }
        let id = context.store.makeModelID()
        let placeholder = Model(id: id, entity: entity.name)
        link(record, id: id, entity: entity, model: placeholder, into: &values,
            newModels: store.newModels, context: context)
        noteDuplicate(record, entity: entity, values: values, into: &store, context: context)
        store.transaction.append(.insert(id, entity: entity.name, values: values))
        store.inserted.append((id, record.recordName))
        store.newModels[record.recordName] = id
        noteSystemFields(record, id: id, shared: store.shared, zone: store.zone,
            context: &context)
    }

    /// HIS-21: the page is one save as the sync author; new models are named once it holds.
    /// HIS-DR-1: the models its delete rules removed besides the page's deletions are noted.
    private func savePage(_ store: inout HistoryPageStore, deletions: [String],
                          context: inout HistoryContext) {
        if !store.transaction.isEmpty {
            do {
                let entry = try context.store.save(store.transaction, author: Self.author)
                for (id, name) in store.inserted { context.syncData.bindings.bind(id, to: name) }
                if let entry, !deletions.isEmpty {
                    let deleted = Set(deletions)
                    store.cascaded = entry.deletedModels
                        .compactMap { context.syncData.bindings.name(of: $0) }
                        .filter { !deleted.contains($0) }.sorted()
                }
            } catch {
                effects.append(.trace(kind: "pull.store-refused", details: [
                    TraceField("error", .string(String(describing: error))),
                ], rules: ["HIS-21"]))
            }
        }
        effects.append(context.writeAll)
    }

    /// What the page did, and the warnings it earns (HISW-12, HISW-3).
    private func tracePageStored(_ store: HistoryPageStore, hasRecords: Bool,
        context: HistoryContext) {
        var rules = ["HIS-21", "HIS-22"]
        if store.shared && hasRecords { rules.append("HIS-35") }
        effects.append(.trace(kind: "pull.page.stored", details: [
            TraceField("zone", .string(store.zone.description)),
            TraceField("inserted", .int(Int64(store.inserted.count))),
            TraceField("updated", .int(Int64(store.updated))),
            TraceField("unchanged", .int(Int64(store.unchanged))),
            TraceField("deleted", .int(Int64(store.deleted))),
        ], rules: rules))
        if !store.shared && !store.inserted.isEmpty {
            noteMergedAccounts(inserted: store.inserted.count, context: context)
        }
        if !store.cascaded.isEmpty {
            effects.append(.trace(kind: "pull.cascade-deleted", details: [
                TraceField("records", .list(store.cascaded.map { .string($0) })),
                TraceField("note",
                    .string("deleted by the delete rule in the pull's save, whose author is "
                    + "never pushed (HIS-5): their records stay in iCloud")),
            ], rules: ["HIS-DR-1", "HIS-21"]))
        }
        if !store.overwritten.isEmpty {
            effects.append(.trace(kind: "pull.overwrote-unpushed", details: [
                TraceField("keys", .list(store.overwritten.map { .string($0) })),
                TraceField("note",
                    .string("an unpushed local edit is overwritten; the next push sends the "
                    + "downloaded value")),
            ], rules: ["HISW-3", "HIS-21"]))
        }
    }

    /// The parent as a relationship, or remembered until its record arrives (HIS-25).
    private func link(_ record: CloudRecord, id: ModelID, entity: EntityDescription, model: Model,
                      into values: inout [String: PropertyValue], newModels: [String: ModelID],
                      context: HistoryContext) {
        guard let parent = HistoryRecords.parentRelationship(of: entity) else { return }
        guard let parentName = record.parent else {
            if model.toOne[parent.name] != nil { values[parent.name] = .relationship(nil) }
            return
        }
        if let target = newModels[parentName] ?? context.syncData.bindings.model(named: parentName),
           context.store.contains(target) || newModels[parentName] != nil {
            if model.toOne[parent.name] != target { values[parent.name] = .relationship(target) }
        } else {
            missingParents.append((id, parent.name, parentName))
        }
    }

    /// HIS-4, HIS-35: the record's system fields, and its owner for a sharer's zone.
    private func noteSystemFields(_ record: CloudRecord, id: ModelID, shared: Bool, zone: ZoneID,
                                  context: inout HistoryContext) {
        var fields = record
        fields.fields = [:]
        context.syncData.systemFields[id] = fields
        if shared { context.syncData.owners[id] = zone.owner } else {
            context.syncData.owners[id] = nil
        }
    }

    /// HISW-11: an inserted record whose identity values a local model already has, or a
    /// record inserted before it from the same page (two devices' twins arrive together).
    private func noteDuplicate(_ record: CloudRecord, entity: EntityDescription,
        values: [String: PropertyValue], into store: inout HistoryPageStore,
        context: HistoryContext) {
        guard !entity.identity.isEmpty else { return }
        let identity = entity.identity.map { key -> AttributeValue? in
            if case .attribute(let value)? = values[key] { return value }
            return nil
        }
        guard !identity.contains(where: { $0 == nil }) else { return }
        let twinName: String
        if let twin = context.store.models(of: entity.name).first(where: { model in
            entity.identity.map { model.values[$0] } == identity
        }) {
            twinName = context.syncData.bindings.name(of: twin.id) ?? twin.id.description
        } else if let twin = store.newIdentities.first(where: {
            $0.entity == entity.name && $0.values == identity
        }) {
            twinName = twin.recordName
        } else {
            store.newIdentities.append((entity.name, identity, record.recordName))
            return
        }
        effects.append(.trace(kind: "pull.duplicate", details: [
            TraceField("recordName", .string(record.recordName)),
            TraceField("twin", .string(twinName)),
        ], rules: ["HISW-11", "HIS-39"]))
    }

    /// HISW-12: the account's records join local models whose system fields name another
    /// account (nothing observes the account, HIS-34): the two accounts' data is merged in
    /// the same store.
    private func noteMergedAccounts(inserted: Int, context: HistoryContext) {
        guard let account = context.account else { return }
        var others: [String] = []
        var models = 0
        for id in context.syncData.systemFields.keys.sorted() {
            guard let record = context.syncData.systemFields[id],
                context.syncData.owners[id] == nil, record.zone.owner != account,
                context.store.contains(id) else { continue }
            if !others.contains(record.zone.owner) { others.append(record.zone.owner) }
            models += 1
        }
        guard models > 0 else { return }
        effects.append(.trace(kind: "pull.accounts-merged", details: [
            TraceField("account", .string(account)),
            TraceField("otherAccounts", .list(others.sorted().map { .string($0) })),
            TraceField("inserted", .int(Int64(inserted))),
            TraceField("otherAccountModels", .int(Int64(models))),
            TraceField("note", .string("the new account's records join the old account's "
                + "models in the same store")),
        ], rules: ["HISW-12", "HIS-34"]))
    }

    /// The keys of each model that unconsumed history after the persisted token changed.
    private func unpushedKeys(context: HistoryContext) -> [ModelID: Set<String>] {
        var keys: [ModelID: Set<String>] = [:]
        for transaction in context.store.persistentHistory(after: context.syncData.persistedToken)
        where transaction.author != Self.author {
            for change in transaction.changes {
                switch change {
                case .inserted(let id, let entity):
                    let names = schema.entity(named: entity)?.attributes.map(\.name) ?? []
                    keys[id, default: []].formUnion(names)
                case .updated(let id, _, let changed):
                    keys[id, default: []].formUnion(changed)
                case .deleted:
                    break
                }
            }
        }
        return keys
    }
}
