import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension NaiveEngine {
    /// NAIVE-8: each record of the page, converted by `init?(record:)`, overwrites every
    /// attribute of its local model or is inserted; the page is one save of the store, as
    /// author `naive`, so it is never uploaded again (NAIVE-14).
    func storePage(
        _ download: NaiveOperation, context: inout NaiveContext
    ) {
        guard let page = download.download.page else {
            preconditionFailure("naive: a page stored that was never fetched")
        }
        var transaction = Transaction()
        var inserted: [(model: ModelID, name: String)] = []
        var updated = 0
        var late: [String] = []
        // The identity values of the page's new models, and their records (NAIVEW-12).
        var newIdentities: [(entity: String, values: [AttributeValue?], name: String)] = []
        for record in page.records {
            guard case let (entity, values)? = converted(record, download, context: context) else {
                continue
            }
            let name = record.recordName
            if let id = context.syncData.bindings.model(named: name),
                let model = context.store.model(id) {
                var changes: [String: PropertyValue] = [:]
                for key in values.keys.sorted() where model.values[key] != values[key] ?? nil {
                    changes[key] = .attribute(values[key] ?? nil)
                }
                noteRevert(name, model: model, values: values)
                guard !changes.isEmpty else { continue }
                noteOverwrittenSave(name, model: model, values: values)
                transaction.append(.update(id, values: changes))
                updated += 1
                if isLate(record, download, context: context) { late.append(name) }
            } else {
                let id = context.store.makeModelID()
                noteReturn(name, zoneStart: download.download.zoneStartedAt, context: context)
                noteDuplicate(name, entity: entity, values: values, page: &newIdentities,
                              context: context)
                var properties: [String: PropertyValue] = [:]
                for key in values.keys.sorted() { properties[key] = .attribute(values[key] ?? nil) }
                transaction.append(.insert(id, entity: entity.name, values: properties))
                inserted.append((id, name))
                if isLate(record, download, context: context) { late.append(name) }
            }
        }
        if !transaction.isEmpty {
            guard savePage(transaction, inserted: inserted, context: &context) else {
                pass(["download.page.stored", "download.page.saved"], then: .afterPage, download,
                     context: &context)
                return
            }
        }
        effects.append(.trace(kind: "download.page.applied", details: [
            TraceField("records", .int(Int64(page.records.count))),
            TraceField("inserted", .int(Int64(inserted.count))),
            TraceField("updated", .int(Int64(updated))),
        ], rules: transaction.isEmpty ? ["NAIVE-8"] : ["NAIVE-8", "NAIVE-14"]))
        if !late.isEmpty {
            effects.append(.trace(kind: "download.push-missed", details: [
                TraceField("records", .list(late.map { .string($0) })),
                TraceField("note",
                    .string("changed while this device ran online; no push started a download")),
            ], rules: ["NAIVEW-8"]))
        }
        pass(["download.page.stored", "download.page.saved"], then: .afterPage, download,
             context: &context)
    }

    /// NAIVE-8: the record seen in the cloud, then its values as `init?(record:)` converts
    /// them, or nil (traced) for a record the app cannot read.
    private func converted(
        _ record: CloudRecord, _ download: NaiveOperation, context: NaiveContext
    ) -> (EntityDescription, [String: AttributeValue?])? {
        let name = record.recordName
        download.download.zoneSeen.insert(name)
        seenInCloud[name] = (record.zone.name, context.now)
        reportedMissing.remove(name)
        guard let entity = schema.entity(named: record.recordType), entity.isSynchronized,
              NaiveRecords.uuid(inRecordName: name) != nil else {
            effects.append(.trace(kind: "download.record-skipped", details: [
                TraceField("recordName", .string(name)),
                TraceField("reason", .string("not a record of a synchronized entity")),
            ], rules: ["NAIVE-8"]))
            return nil
        }
        let converted = NaiveRecords.values(of: record, entity: entity)
        if let missing = converted.missing {
            effects.append(.trace(kind: "download.record-skipped", details: [
                TraceField("recordName", .string(name)),
                TraceField("missing", .string(missing)),
                TraceField("reason", .string("init?(record:) returns nil")),
            ], rules: ["NAIVE-8"]))
            return nil
        }
        return (entity, converted.values)
    }

    /// NAIVE-8, NAIVE-14: the page's one save as author `naive`, then the inserted models'
    /// names; false (traced) when the store refuses it.
    private func savePage(
        _ transaction: Transaction, inserted: [(model: ModelID, name: String)],
        context: inout NaiveContext
    ) -> Bool {
        do {
            try context.store.save(transaction, author: Self.author)
        } catch {
            effects.append(.trace(kind: "download.store-refused", details: [
                TraceField("error", .string(String(describing: error))),
            ], rules: ["NAIVE-8"]))
            return false
        }
        for (model, name) in inserted {
            if let previous = context.syncData.bindings.model(named: name) {
                context.syncData.bindings.forget(previous)
            }
            context.syncData.bindings.bind(model, to: name)
        }
        effects.append(context.writeAll)
        return true
    }

    /// NAIVEW-8: a download started by `sync` brings a change another device made while this
    /// one ran online, after its previous download began.
    private func isLate(
        _ record: CloudRecord, _ download: NaiveOperation, context: NaiveContext
    ) -> Bool {
        guard download.download.trigger == .sync, record.lastModifiedBy != context.device,
              let modified = record.modificationTime, let online = onlineSince, modified >= online,
              let previous = download.download.previousDownloadStart,
              modified > previous else { return false }
        return true
    }

    /// NAIVEW-3: the download overwrites values of a save that was dropped offline.
    private func noteRevert(
        _ name: String, model: Model, values: [String: AttributeValue?]
    ) {
        guard let dropped = droppedSaves[name] else { return }
        let reverted = dropped.keys.sorted().filter { key in
            let local = model.values[key]
            return local == dropped[key] ?? nil && values[key] != nil && values[key] ?? nil != local
        }
        droppedSaves[name] = nil
        guard !reverted.isEmpty else { return }
        effects.append(.trace(kind: "download.reverted-edit", details: [
            TraceField("recordName", .string(name)),
            TraceField("keys", .list(reverted.map { .string($0) })),
        ], rules: ["NAIVEW-3", "NAIVE-8"]))
    }

    /// NAIVE-DR-3: the page replaces a local edit whose save is still on its way to iCloud.
    private func noteOverwrittenSave(
        _ name: String, model: Model, values: [String: AttributeValue?]
    ) {
        var keys: [String] = []
        for operation in operations.values { // tidy: ordered (keys sorted below)
            guard case .save(let save) = operation.job, save.recordName == name else { continue }
            for (key, value) in save.captured // tidy: ordered (keys sorted below)
            where model.values[key] == value && values[key] != nil && values[key] ?? nil != value {
                keys.append(key)
            }
        }
        guard !keys.isEmpty else { return }
        effects.append(.trace(kind: "download.overwrote-unanswered-save", details: [
            TraceField("recordName", .string(name)),
            TraceField("keys", .list(Set(keys).sorted().map { .string($0) })),
        ], rules: ["NAIVE-8", "NAIVE-DR-3"]))
    }

    /// A record inserted although it stands for a local model that is gone: a batch delete
    /// (NAIVEW-10), a deletion dropped offline (NAIVEW-3) or one iCloud had not answered when
    /// the zone fetch began (NAIVE-DR-4).
    private func noteReturn(_ name: String, zoneStart: SimTime, context: NaiveContext) {
        if let answered = deletions[name], answered.map({ $0 >= zoneStart }) ?? true {
            deletions[name] = nil
            effects.append(.trace(kind: "download.deletion-overtaken", details: [
                TraceField("recordName", .string(name)),
                TraceField("note", .string("the page left iCloud before the deletion reached it")),
            ], rules: ["NAIVE-8", "NAIVE-DR-4"]))
        } else if droppedDeletes.contains(name) {
            droppedDeletes.remove(name)
            effects.append(.trace(kind: "download.deletion-undone", details: [
                TraceField("recordName", .string(name)),
            ], rules: ["NAIVEW-3", "NAIVE-8"]))
        } else if context.syncData.bindings.model(named: name) != nil {
            effects.append(.trace(kind: "download.model-back", details: [
                TraceField("recordName", .string(name)),
                TraceField("note",
                    .string("its model is gone from the store without a saved deletion")),
            ], rules: ["NAIVEW-10", "NAIVE-8"]))
        }
    }

    /// NAIVEW-12: a record inserted with the identity values of a local model, or of a record
    /// inserted before it from the same page (two devices' twins arrive together).
    private func noteDuplicate(
        _ name: String, entity: EntityDescription, values: [String: AttributeValue?],
        page: inout [(entity: String, values: [AttributeValue?], name: String)],
        context: NaiveContext
    ) {
        guard !entity.identity.isEmpty else { return }
        let identity = entity.identity.map { values[$0] ?? nil }
        guard !identity.contains(where: { $0 == nil }) else { return }
        let twinName: String
        if let twin = context.store.models(of: entity.name).first(where: { model in
            entity.identity.map { model.values[$0] } == identity
        }) {
            twinName = context.syncData.bindings.name(of: twin.id) ?? twin.id.description
        } else if let twin = page.first(where: {
            $0.entity == entity.name && $0.values == identity
        }) {
            twinName = twin.name
        } else {
            page.append((entity.name, identity, name))
            return
        }
        effects.append(.trace(kind: "download.duplicate", details: [
            TraceField("recordName", .string(name)),
            TraceField("twin", .string(twinName)),
            TraceField("identity", .list(entity.identity.map { .string($0) })),
        ], rules: ["NAIVEW-12", "NAIVE-13"]))
    }
}
