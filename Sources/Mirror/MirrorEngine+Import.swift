import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension MirrorEngine {
    func importAnswered(
        _ response: CloudResponse, _ request: MirrorRequest, _ work: MirrorRequest.ImportWork,
        context: inout MirrorContext
    ) {
        switch response {
        case .databaseChanges(let changed, let deleted, let token, _):
            let zone = zone(context)
            effects.append(.trace(kind: "import.database-changes", details: [
                TraceField("changed", .list(changed.map { .string($0.description) })),
                TraceField("deleted",
                    .list(deleted.map { .string("\($0.zone) \($0.reason.rawValue)") })),
                TraceField("token", .int(token.sequence)),
            ], rules: ["MIR-15"]))
            if let deletion = deleted.first(where: { $0.zone == zone }) {
                zoneDeleted(deletion.reason, request, context: &context)
                return
            }
            // Memory until the zone's last page (or the import's end) writes it with the data.
            work.databaseToken = token
            work.zoneChanged = changed.contains(zone) || context.syncData.zoneToken == nil
            guard work.zoneChanged else {
                importDone(request, work, context: &context)
                return
            }
            run(.fetchPage, request, context: &context)
        case .zoneChanges(let records, let deletions, let token, let moreComing):
            work.page = (records, deletions, token, moreComing)
            pass(["download.page.fetched"], then: .storePage, request, context: &context)
        case .failure(let error) where error.code == .changeTokenExpired:
            tokenExpired(request, context: &context)
        case .failure(let error) where error.code == .zoneNotFound
            || error.code == .userDeletedZone:
            zoneDeleted(error.code == .userDeletedZone ? .purged : .deleted, request,
                        context: &context)
        case .failure(let error):
            requestFailed(error, request, context: &context)
        default:
            effects.append(.trace(kind: "import.unexpected-answer", details: [], rules: []))
            abandon(request, context: &context)
        }
    }

    /// MIR-15: each fetched record is applied to its object (inserted if new), every `CD_`
    /// field written; relationships resolve by record name or wait; deletions delete; all of
    /// it saved as the import's author, with the zone's token in the same save.
    func storePage(
        _ request: MirrorRequest, _ work: MirrorRequest.ImportWork, context: inout MirrorContext
    ) {
        guard let page = work.page else {
            preconditionFailure("mirror: a page to store, none fetched")
        }
        // MIR-28: the database token is saved with the zone's last page only, so a kill between
        // two pages leaves the zone changed for the next launch, which resumes from the zone
        // token.
        if !page.moreComing,
           let token = work.databaseToken { context.syncData.databaseToken = token }
        var stored = StoredPage(pending: Set(pendingChanges(context).models))
        for record in page.records {
            storeRecord(record, stored: &stored, context: &context)
        }
        for deletion in page.deletions {
            // The record is gone from iCloud: a deletion of it that failed here is done.
            context.syncData.pendingDeletes.removeAll { $0 == deletion.recordName }
            guard let id = context.syncData.bindings.model(named: deletion.recordName) else {
                continue
            }
            if context.store.contains(id) {
                stored.transaction.append(.delete(id))
                stored.deletedCount += 1
            }
            context.syncData.forget(id)
        }
        do {
            if !stored.transaction.isEmpty,
                let entry = try context.store.save(stored.transaction, author: Self.author),
                !page.deletions.isEmpty
            {
                // MIR-DR-1: objects the save deleted through a delete rule, not because the
                // page brought their deletion (those are forgotten above).
                let imported = Set(page.deletions.map(\.recordName))
                stored.cascaded = entry.deletedModels
                    .compactMap { context.syncData.bindings.name(of: $0) }
                    .filter { !imported.contains($0) }.sorted()
            }
        } catch {
            effects.append(.trace(kind: "import.store-refused", details: [
                TraceField("error", .string(String(describing: error))),
            ], rules: ["MIR-15"]))
        }
        resolveLinks(context: &context)
        context.syncData.zoneToken = page.token
        writeAll(context)
        traceStoredPage(stored, records: page.records.count, token: page.token)
        pass(["download.page.stored", "download.page.saved"], then: .afterPage, request,
             context: &context)
    }

    /// What one fetched page does to the store, gathered before its single save.
    struct StoredPage {
        var transaction = Transaction()
        var inserted: [(ModelID, String)] = []
        var updated = 0
        var deletedCount = 0
        /// The objects with changes not exported yet.
        let pending: Set<ModelID>
        var overwritten: [TraceValue] = []
        var cascaded: [String] = []

        init(pending: Set<ModelID>) { self.pending = pending }
    }

    /// MIR-4, MIR-15: one fetched record updates its object or inserts a new one, unless it
    /// is of no synchronized entity or changes nothing here.
    private func storeRecord(
        _ record: CloudRecord, stored: inout StoredPage, context: inout MirrorContext
    ) {
        let name = record.recordName
        guard let entityName = MirrorCodec.layout.entity(ofRecordType: record.recordType),
              let entity = schema.entity(named: entityName), entity.isSynchronized else {
            effects.append(.trace(kind: "import.record-skipped", details: [
                TraceField("recordName", .string(name)),
                TraceField("recordType", .string(record.recordType)),
            ], rules: ["MIR-4"]))
            return
        }
        var values: [String: PropertyValue] = [:]
        var links: [String: String] = [:]
        decodeRecord(record, entity: entity, inserted: stored.inserted, context: context,
            values: &values, links: &links)
        guard !alreadyHeld(record, context: context) else { return }
        let ownKeys = context.syncData.exportedKeys.removeValue(forKey: name) ?? []
        context.syncData.changeTags[name] = record.changeTag
        if let id = context.syncData.bindings.model(named: name),
            let model = context.store.model(id) {
            if !ownKeys.isEmpty, record.lastModifiedBy != context.device,
               !stored.pending.contains(id) {
                noteExportOverwritten(name, ownKeys: ownKeys, values: values, model: model)
            }
            updateObject(name, id: id, model: model, entity: entity, values: values,
                stored: &stored)
        } else {
            noteDuplicate(name, entity: entity, values: values, context: context)
            let id = context.store.makeModelID()
            stored.transaction.append(.insert(id, entity: entity.name, values: values))
            stored.inserted.append((id, name))
            context.syncData.bindings.bind(id, to: name)
        }
        context.syncData.pendingLinks[name] = links.isEmpty ? nil : links
    }

    /// MIR-15: a record's `CD_` fields as the object's values; a reference to an object not
    /// here yet waits as a link.
    private func decodeRecord(
        _ record: CloudRecord, entity: EntityDescription, inserted: [(ModelID, String)],
        context: MirrorContext, values: inout [String: PropertyValue],
        links: inout [String: String]
    ) {
        for attribute in entity.attributes {
            let value = MirrorCodec.layout.value(of: attribute.name, type: attribute.type,
                in: record)
            values[attribute.name] = .attribute(value
                ?? (attribute.isOptional ? nil : attribute.defaultValue))
        }
        for relationship in entity.relationships where !relationship.isToMany {
            guard let target = MirrorCodec.layout.reference(of: relationship.name, in: record)
            else {
                values[relationship.name] = .relationship(nil)
                continue
            }
            if let id = context.syncData.bindings.model(named: target), context.store.contains(id)
                || inserted.contains(where: { $0.0 == id }) {
                values[relationship.name] = .relationship(id)
            } else {
                links[relationship.name] = target
            }
        }
    }

    /// MIR-12, MIR-13, MIR-28: a fetched record that must not be applied, because the object
    /// already holds it or was deleted here.
    private func alreadyHeld(
        _ record: CloudRecord, context: MirrorContext
    ) -> Bool {
        let name = record.recordName
        // MIR-13 / MIR-28: a record whose change tag is the one archived (this device's own
        // export, or a version already imported) is what the object already holds; fetched
        // again (a zone token older than the export, e.g. after a kill), it changes nothing,
        // so it cannot overwrite an edit made since.
        if let tag = record.changeTag, context.syncData.changeTags[name] == tag,
           let id = context.syncData.bindings.model(named: name), context.store.contains(id) {
            effects.append(.trace(kind: "import.record-already-known", details: [
                TraceField("recordName", .string(name)),
                TraceField("changeTag", .string(tag)),
            ], rules: ["MIR-13", "MIR-28"]))
            return true
        }
        // MIR-28 / MIR-12: the object was deleted here and its deletion is not exported yet
        // (its tombstone is in the history, or it is gone without one, MIR-27): the record
        // is not applied, so the object does not come back as a new one that iCloud lacks
        // once the export deletes the record.
        if let id = context.syncData.bindings.model(named: name), !context.store.contains(id) {
            effects.append(.trace(kind: "import.record-deleted-here", details: [
                TraceField("recordName", .string(name)),
                TraceField("note",
                    .string("the deletion waits in the history: the next export deletes the "
                    + "record")),
            ], rules: ["MIR-28", "MIR-12"]))
            return true
        }
        return false
    }

    /// MIRW-1, MIR-14: another device's export replaced keys this device exported last.
    private func noteExportOverwritten(
        _ name: String, ownKeys: [String], values: [String: PropertyValue], model: Model
    ) {
        let replaced = ownKeys.filter { key in
            if case .attribute(let value)? = values[key] {
                return value != model.values[key]
            }
            return false
        }
        guard !replaced.isEmpty else { return }
        effects.append(.trace(kind: "import.export-overwritten", details: [
            TraceField("recordName", .string(name)),
            TraceField("keys", .list(replaced.map { .string($0) })),
            TraceField("note",
                .string("[unverified] another device's export reached iCloud after "
                + "this device's and wrote every key: the last export wins the "
                    + "whole record")),
        ], rules: ["MIRW-1", "MIR-14"]))
    }

    /// MIR-15, MIR-16: an existing object takes the record's differing values; unexported
    /// changes they overwrite are noted.
    private func updateObject(
        _ name: String, id: ModelID, model: Model, entity: EntityDescription,
        values: [String: PropertyValue], stored: inout StoredPage
    ) {
        if stored.pending.contains(id) {
            let lost = entity.attributes.map(\.name).filter { key in
                if case .attribute(let value)? = values[key] {
                    return value != model.values[key]
                }
                return false
            }
            if !lost.isEmpty {
                stored.overwritten.append(.object([
                    TraceField("recordName", .string(name)),
                    TraceField("keys", .list(lost.map { .string($0) })),
                ]))
            }
        }
        var changes: [String: PropertyValue] = [:]
        for key in values.keys.sorted() {
            switch values[key] {
            case .attribute(let value)?:
                if model.values[key] != value { changes[key] = .attribute(value) }
            case .relationship(let target)?:
                if model.toOne[key] != target { changes[key] = .relationship(target) }
            default: break
            }
        }
        if !changes.isEmpty {
            stored.transaction.append(.update(id, values: changes))
            stored.updated += 1
        }
    }

    /// MIR-15, MIR-28, MIR-DR-1, MIR-16: the traces of a stored page, in a fixed order.
    private func traceStoredPage(
        _ stored: StoredPage, records: Int, token: ZoneChangeToken
    ) {
        effects.append(.trace(kind: "import.page.saved", details: [
            TraceField("records", .int(Int64(records))),
            TraceField("inserted", .int(Int64(stored.inserted.count))),
            TraceField("updated", .int(Int64(stored.updated))),
            TraceField("deleted", .int(Int64(stored.deletedCount))),
            TraceField("token", .int(token.sequence)),
        ], rules: ["MIR-15", "MIR-28"]))
        if !stored.cascaded.isEmpty {
            // MIR-DR-1: the delete rule removed objects whose own deletion was not imported.
            effects.append(.trace(kind: "import.cascade-deleted", details: [
                TraceField("records", .list(stored.cascaded.map { .string($0) })),
                TraceField("note",
                    .string("deleted by the delete rule in the import's save, which is not "
                    + "exported (MIR-15): their values are lost, their records stay until an "
                        + "export")),
            ], rules: ["MIR-DR-1"]))
        }
        if !stored.overwritten.isEmpty {
            effects.append(.trace(kind: "import.overwrote-unexported", details: [
                TraceField("records", .list(stored.overwritten)),
                TraceField("note",
                    .string("the store keeps no pending keys: the next export sends the "
                    + "imported values")),
            ], rules: ["MIR-16", "MIRW-3"]))
        }
    }

    /// MIR-25 / MIRW-8: a record inserted although a local object of the same entity holds the
    /// same values under another record: two devices created the same thing.
    private func noteDuplicate(
        _ name: String, entity: EntityDescription, values: [String: PropertyValue],
        context: MirrorContext
    ) {
        let keys = entity.attributes.map(\.name)
        guard !keys.isEmpty else { return }
        let twin = context.store.models(of: entity.name).first { model in
            guard let other = context.syncData.bindings.name(of: model.id),
                  other != name else { return false }
            return keys.allSatisfy { key in
                if case .attribute(let value)? = values[key] { return model.values[key] == value }
                return false
            }
        }
        guard let twin, let twinName = context.syncData.bindings.name(of: twin.id) else { return }
        effects.append(.trace(kind: "import.duplicate", details: [
            TraceField("recordName", .string(name)),
            TraceField("twin", .string(twinName)),
            TraceField("note",
                .string("no identity, no deduplication: two records of the same values")),
        ], rules: ["MIRW-8", "MIR-25"]))
    }

    /// MIR-15: relationships whose target arrived are linked now.
    private func resolveLinks(context: inout MirrorContext) {
        var transaction = Transaction()
        var linked: [String] = []
        for name in context.syncData.pendingLinks.keys.sorted() {
            guard let source = context.syncData.bindings.model(named: name),
                context.store.contains(source),
                  var links = context.syncData.pendingLinks[name] else { continue }
            var values: [String: PropertyValue] = [:]
            for field in links.keys.sorted() {
                guard let target = links[field],
                    let id = context.syncData.bindings.model(named: target),
                      context.store.contains(id) else { continue }
                values[field] = .relationship(id)
                links[field] = nil
            }
            context.syncData.pendingLinks[name] = links.isEmpty ? nil : links
            if !values.isEmpty {
                transaction.append(.update(source, values: values))
                linked.append(name)
            }
        }
        guard !transaction.isEmpty else { return }
        do {
            try context.store.save(transaction, author: Self.author)
            effects.append(.trace(kind: "import.links-resolved", details: [
                TraceField("records", .list(linked.map { .string($0) })),
            ], rules: ["MIR-15"]))
        } catch {
            effects.append(.trace(kind: "import.store-refused", details: [
                TraceField("error", .string(String(describing: error))),
            ], rules: ["MIR-15"]))
        }
    }

    func afterPage(
        _ request: MirrorRequest, _ work: MirrorRequest.ImportWork, context: inout MirrorContext
    ) {
        let more = work.page?.moreComing ?? false
        work.page = nil
        if more {
            run(.fetchPage, request, context: &context)
        } else {
            importDone(request, work, context: &context)
        }
    }

    private func importDone(
        _ request: MirrorRequest, _ work: MirrorRequest.ImportWork, context: inout MirrorContext
    ) {
        if let token = work.databaseToken { context.syncData.databaseToken = token }
        context.syncData.hasImported = true
        writeAll(context)
        lastImportDone = context.now
        failureCleared()
        effects.append(.trace(kind: "import.done", details: [
            TraceField("zoneChanged", .bool(work.zoneChanged)),
        ], rules: ["MIR-15"]))
        if work.zoneChanged {
            effects.append(.trace(kind: "import.query-not-refreshed", details: [
                TraceField("note",
                    .string("@Query views refresh only when the app fetches; not modelled: "
                    + "the harness reads the store")),
            ], rules: ["MIR-26"]))
        }
        // The import saved nothing of the app's: no export follows from it (MIR-15).
        pass(["download.done", "mirror.import.done", "upload.start", "upload.done", "sync.done"],
             then: .finish, request, context: &context)
    }

    /// MIR-DR-2: the purge's reset removes objects whose changes were never exported, among
    /// them any made after the purge and before this device learned of it.
    private func noteUnexportedPurged(_ context: MirrorContext) {
        let unexported = pendingChanges(context).models
        guard !unexported.isEmpty else { return }
        effects.append(.trace(kind: "reset.unexported-removed", details: [
            TraceField("objects", .list(unexported.map {
                .string(context.syncData.bindings.name(of: $0) ?? $0.description)
            })),
        ], rules: ["MIR-DR-2", "MIR-18"]))
    }

    /// MIR-17 / MIR-18: the zone was deleted (by another device) or purged (by the user).
    private func zoneDeleted(
        _ reason: ZoneDeletionReason, _ request: MirrorRequest, context: inout MirrorContext
    ) {
        switch reason {
        case .purged:
            noteUnexportedPurged(context)
            reset(reason: "UserPurgedZone", rules: ["MIR-18"], deleteRows: true,
                  context: &context)
        case .deleted:
            reset(reason: "ZoneDeleted", rules: ["MIR-17", "MIRW-5"], deleteRows: true,
                  context: &context)
        case .encryptedDataReset:
            reset(reason: "EncryptedDataReset", rules: ["MIR-17"], deleteRows: true,
                  context: &context)
        }
        // The next setup creates the zone again (or finds it created again by another device,
        // or by this one's export of an edit made offline, MIR-10), then the zone is imported
        // from scratch: the metadata is gone, and what the zone holds now comes down (a
        // choice, as MIR-19's import; without it a device converges only at the next push).
        runner.moveToFront([.setup, .import])
        pass(["mirror.reset", "download.done", "mirror.import.done", "upload.start", "upload.done",
            "sync.done"],
             then: .finish, request, context: &context)
    }

    /// MIR-19: an expired token wipes the zone's system fields and resets its upload state:
    /// every local object is exported again, then the zone is imported from scratch.
    private func tokenExpired(
        _ request: MirrorRequest, context: inout MirrorContext
    ) {
        context.syncData.zoneToken = nil
        context.syncData.databaseToken = nil
        context.syncData.changeTags = [:]
        context.syncData.reexport = synchronizedModels(context.store)
        writeAll(context)
        effects.append(.trace(kind: "sync.reset", details: [
            TraceField("reason", .string("ServerChangeTokenExpired")),
            TraceField("reexported", .int(Int64(context.syncData.reexport.count))),
            TraceField("note", .string("[unverified] every local object is exported again, "
                + "so records deleted elsewhere come back")),
        ], rules: ["MIR-19", "MIRW-6"]))
        runner.moveToFront([.export, .import])
        pass(["mirror.reset", "download.done", "mirror.import.done", "upload.start", "upload.done",
            "sync.done"],
             then: .finish, request, context: &context)
    }
}
