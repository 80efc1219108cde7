import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension MirrorEngine {
    /// MIR-12: the export covers every object with history since the last export that the
    /// import did not author; each becomes a record holding every attribute and to-one
    /// relationship, saved with `.changedKeys` and every key listed (so no tag is compared,
    /// MIR-14); deleted objects become record deletes (MIR-27 for batch deletes).
    func serializeExport(
        _ export: MirrorRequest, _ work: MirrorRequest.ExportWork, context: inout MirrorContext
    ) {
        let pending = pendingChanges(context)
        work.position = context.store.lastHistoryPosition
        work.models = pending.models
        work.deletes = pending.deletes
        guard exportCanStart(export, work, pending: pending, context: &context) else { return }
        var serialized = SerializedExport()
        // MIRW-1: what this device last saw may be stale since it came online or since an
        // export of it failed, until an import completes.
        serialized.stale = [onlineSince, lastExportFailure].contains { since in
            since.map { since in lastImportDone.map { $0 < since } ?? true } ?? false
        }
        serialized.changedKeys = changedKeysSinceExport(context)
        work.updatedKeys = serialized.changedKeys.filter {
            !$0.value.isEmpty && context.syncData.bindings.name(of: $0.key) != nil
        }
            .mapValues { Array(Set($0)).sorted() }
        let zone = zone(context)
        for id in pending.models {
            serializeModel(id, zone: zone, serialized: &serialized, context: &context)
        }
        traceSerialized(serialized, work, deletes: pending.deletes, context: context)
        work.batches = Self.batches(saves: serialized.saves, deletes: pending.deletes)
        // Names given here (objects whose save named none, e.g. after a reset) reach the disk
        // before the request leaves.
        if !serialized.named.isEmpty {
            effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
        }
        pass(["upload.start"], then: .sendBatch, export, context: &context)
    }

    /// The records of an export and what its traces report, gathered model by model.
    private struct SerializedExport {
        var saves: [RecordSave] = []
        var named: [TraceValue] = []
        var assets: [TraceValue] = []
        var rewritten: [TraceValue] = []
        /// Online again since the last import finished: the values may predate iCloud's.
        var stale = false
        var changedKeys: [ModelID: [String]] = [:]
    }

    /// MIR-5, MIR-6, MIR-12: an export with nothing to send, or without its zone, ends here
    /// (the latter after queueing setup first).
    private func exportCanStart(
        _ export: MirrorRequest, _ work: MirrorRequest.ExportWork,
        pending: (models: [ModelID], deletes: [String]), context: inout MirrorContext
    ) -> Bool {
        guard !pending.models.isEmpty || !pending.deletes.isEmpty else {
            advanceExport(work, context: &context)
            effects.append(.trace(kind: "export.nothing", details: [], rules: ["MIR-12"]))
            failureCleared()
            pass(["upload.start", "upload.done", "mirror.export.done", "sync.done"], then: .finish,
                export,
                 context: &context)
            return false
        }
        if !context.syncData.isSetUp {
            // The zone is gone or was never made: setup first, then this export again.
            runner.moveToFront([.setup, .export])
            effects.append(.trace(kind: "export.needs-setup", details: [],
                rules: ["MIR-5", "MIR-6"]))
            pass(["upload.start", "upload.done", "mirror.export.done", "sync.done"], then: .finish,
                export,
                 context: &context)
            return false
        }
        return true
    }

    /// MIR-4, MIR-12, MIR-14, MIR-23: one changed object becomes a whole-record save, named
    /// here if it has no record yet.
    private func serializeModel(
        _ id: ModelID, zone: ZoneID, serialized: inout SerializedExport,
        context: inout MirrorContext
    ) {
        guard let model = context.store.model(id),
              let entity = schema.entity(named: model.entity) else { return }
        let isNew = context.syncData.bindings.name(of: id) == nil
        let name = context.syncData.bindings.name(of: id) ?? {
            let fresh = context.makeRandomRecordName()
            context.syncData.bindings.bind(id, to: fresh)
            serialized.named.append(.string(fresh))
            return fresh
        }()
        let built = MirrorCodec.fields(of: model, entity: entity) {
            context.syncData.bindings.name(of: $0)
        }
        var record = CloudRecord(recordType: MirrorCodec.layout.recordType(ofEntity: entity.name),
                                 recordName: name, zone: zone, fields: built.fields)
        record.changeTag = context.syncData.changeTags[name]
        serialized.saves.append(
            RecordSave(record: record, changedKeys: MirrorCodec.allKeys(of: entity)))
        if !built.assets.isEmpty {
            serialized.assets.append(.object([
                TraceField("recordName", .string(name)),
                TraceField("fields",
                    .list(built.assets.map { .string(MirrorCodec.assetField($0)) })),
            ]))
        }
        let failedKeys = context.syncData.failedExportKeys.isEmpty
            ? nil : context.syncData.failedExportKeys[name]
        if !isNew, serialized.stale || failedKeys != nil {
            let touched = Set(serialized.changedKeys[id] ?? []).union(failedKeys ?? [])
            let others = entity.attributes.map(\.name).filter { !touched.contains($0) }
            if !others.isEmpty, !touched.isEmpty {
                serialized.rewritten.append(.object([
                    TraceField("recordName", .string(name)),
                    TraceField("keys", .list(others.map { .string($0) })),
                ]))
            }
        }
    }

    /// MIR-4, MIR-12, MIR-14, MIR-23, MIR-27: the traces of a serialized export, in a fixed
    /// order.
    private func traceSerialized(
        _ serialized: SerializedExport, _ work: MirrorRequest.ExportWork, deletes: [String],
        context: MirrorContext
    ) {
        if !serialized.named.isEmpty {
            effects.append(.trace(kind: "record.named", details: [
                TraceField("recordNames", .list(serialized.named)),
            ], rules: ["MIR-4"]))
        }
        effects.append(.trace(kind: "export.serialized", details: [
            TraceField("saves", .list(serialized.saves.map { .string($0.record.recordName) })),
            TraceField("deletes", .list(deletes.map { .string($0) })),
            TraceField("policy", .string("changedKeys")),
            TraceField("through", .int(work.position)),
        ], rules: ["MIR-12", "MIR-14"]))
        if !serialized.assets.isEmpty {
            effects.append(.trace(kind: "export.assets", details: [
                TraceField("records", .list(serialized.assets)),
            ], rules: ["MIR-23"]))
        }
        if !serialized.rewritten.isEmpty {
            effects.append(.trace(kind: "export.rewrites-unchanged-keys", details: [
                TraceField("records", .list(serialized.rewritten)),
                TraceField("note",
                    .string("[unverified] written with the values this device last saw, "
                    + "before it imported what changed while it was offline: the export that "
                        + "reaches "
                    + "iCloud last wins every key")),
            ], rules: ["MIRW-1", "MIR-14"]))
        }
        if !deletes.isEmpty {
            let batchDeleted = deletes.filter { name in
                guard let id = context.syncData.bindings.model(named: name) else { return false }
                return !tombstoned(id, context)
            }
            if !batchDeleted.isEmpty {
                effects.append(.trace(kind: "export.batch-deletes", details: [
                    TraceField("recordNames", .list(batchDeleted.map { .string($0) })),
                ], rules: ["MIR-27"]))
            }
        }
    }

    /// The keys the app changed per object since the last export (for MIRW-1's trace).
    private func changedKeysSinceExport(_ context: MirrorContext) -> [ModelID: [String]] {
        var keys: [ModelID: [String]] = [:]
        for entry in context.store.history(after: context.syncData.exportedThrough)
            where entry.author != Self.author {
            for change in entry.changes {
                switch change {
                case .inserted(let id, _):
                    keys[id] = []
                case .updated(let id, _, let changed):
                    keys[id, default: []] += changed
                case .deleted:
                    break
                }
            }
        }
        return keys
    }

    /// Whether the history holds a tombstone of the object since the last export.
    private func tombstoned(_ id: ModelID, _ context: MirrorContext) -> Bool {
        context.store.history(after: context.syncData.exportedThrough).contains { entry in
            entry.changes.contains {
                if case .deleted(let gone, _, _) = $0 { return gone == id } else { return false }
            }
        }
    }

    /// Splits an export into requests under CloudKit's limits (400 items, 2 MB).
    static func batches(
        saves: [RecordSave], deletes: [String]
    ) -> [(saves: [RecordSave], deletes: [String])] {
        var result: [(saves: [RecordSave], deletes: [String])] = []
        var current: [RecordSave] = []
        var bytes = 0
        for save in saves {
            let size = save.record.recordSizeBytes
            if !current.isEmpty, current.count >= batchLimit || bytes + size > batchBytes {
                result.append((current, []))
                current = []
                bytes = 0
            }
            current.append(save)
            bytes += size
        }
        var remaining = deletes
        if !current.isEmpty || !remaining.isEmpty {
            let room = max(0, batchLimit - current.count)
            result.append((current, Array(remaining.prefix(room))))
            remaining = Array(remaining.dropFirst(room))
        }
        while !remaining.isEmpty {
            result.append(([], Array(remaining.prefix(batchLimit))))
            remaining = Array(remaining.dropFirst(batchLimit))
        }
        return result
    }

    /// Sends the next batch of an export or a schema initialization; after the last, the
    /// upload is done.
    func sendBatch(_ request: MirrorRequest, context: inout MirrorContext) {
        let batch: (saves: [RecordSave], deletes: [String])
        switch request.work {
        case .export(let work) where !work.batches.isEmpty:
            batch = work.batches.removeFirst()
        case .initializeSchema(let work) where !work.batches.isEmpty:
            batch = work.batches.removeFirst()
        case .export:
            pass(["upload.done"], then: .serializeDone, request, context: &context)
            return
        case .initializeSchema:
            effects.append(.trace(kind: "schema.initialized", details: [], rules: ["MIR-29"]))
            pass(["upload.done", "sync.done"], then: .finish, request, context: &context)
            return
        case .setup, .import:
            preconditionFailure("mirror: a \(request.kind) has no batches to send")
        }
        send(.modifyRecords(scope: .privateDatabase, zone: zone(context), saves: batch.saves,
                            deletes: batch.deletes, policy: .changedKeys, atomic: false),
             for: request)
        passAwaiting("upload.sent", request)
    }

    func exportAnswered(
        _ response: CloudResponse, _ export: MirrorRequest, _ work: MirrorRequest.ExportWork,
        context: inout MirrorContext
    ) {
        switch response {
        case .recordsModified(let results):
            var saved: [String] = []
            for result in results {
                switch result {
                case .saved(let record):
                    // MIR-13: the returned record is archived in the object's metadata.
                    let wasKnown = context.syncData.changeTags[record.recordName] != nil
                    context.syncData.changeTags[record.recordName] = record.changeTag
                    if let id = context.syncData.bindings.model(named: record.recordName) {
                        context.syncData.exportedKeys[record.recordName] = work.updatedKeys[id]
                    }
                    if !context.syncData.failedExportKeys.isEmpty {
                        context.syncData.failedExportKeys[record.recordName] = nil
                    }
                    saved.append(record.recordName)
                    if wasKnown, record.creationTime == record.modificationTime {
                        // The record was deleted in iCloud: the export created it again, whole.
                        effects.append(.trace(kind: "export.recreated-record", details: [
                            TraceField("recordName", .string(record.recordName)),
                            TraceField("fields", .list(record.sortedKeys.map { .string($0) })),
                            TraceField("note", .string("the deletion made elsewhere is lost")),
                        ], rules: ["MIRW-2", "MIR-12"]))
                    }
                case .deleted(let name):
                    if let id = context.syncData.bindings.model(named: name) {
                        context.syncData.forget(id)
                    }
                    context.syncData.pendingDeletes.removeAll { $0 == name }
                case .failed(let name, let error):
                    if work.firstError == nil { work.firstError = error }
                    lastExportFailure = context.now
                    if let id = context.syncData.bindings.model(named: name),
                        context.store.contains(id) {
                        work.failedModels.append(id)
                        noteExportFailed(name, carried: work.updatedKeys[id] ?? [], &context)
                    } else {
                        work.failedDeletes.append(name)
                    }
                    effects.append(.trace(kind: "export.item-failed", details: [
                        TraceField("recordName", .string(name)),
                        TraceField("error", .string(error.code.description)),
                    ], rules: error.code == .invalidArguments ? ["MIR-22", "MIR-30"] : ["MIR-22"]))
                }
            }
            effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
            sendBatch(export, context: &context)
        case .failure(let error) where error.code == .zoneNotFound
            || error.code == .userDeletedZone:
            zoneMissing(error, export, context: &context)
        case .failure(let error):
            lastExportFailure = context.now
            requestFailed(error, export, context: &context)
        default:
            effects.append(.trace(kind: "export.unexpected-answer", details: [], rules: []))
            abandon(export, context: &context)
        }
    }

    /// MIRW-1: an update whose export failed remembers the keys it carried (an insert none:
    /// no other device has its record to edit).
    private func noteExportFailed(
        _ name: String, carried: [String], _ context: inout MirrorContext
    ) {
        guard !carried.isEmpty else { return }
        var known = context.syncData.failedExportKeys[name] ?? []
        for key in carried where !known.contains(key) { known.append(key) }
        context.syncData.failedExportKeys[name] = known
    }

    /// The zone is gone: an import finds out why (MIR-17, MIR-18), then setup and export.
    private func zoneMissing(
        _ error: CloudError, _ export: MirrorRequest, context: inout MirrorContext
    ) {
        do {
            context.syncData.isSetUp = false
            effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
            effects.append(.trace(kind: "export.zone-missing", details: [
                TraceField("error", .string(error.code.description)),
            ], rules: ["MIR-17"]))
            runner.moveToFront([.import, .setup, .export])
            pass(["upload.done", "mirror.export.done", "sync.done"], then: .finish, export,
                 context: &context)
        }
    }

    /// MIR-13: the export is done: the last exported transaction advances; items that failed
    /// are kept to export again (MIR-22: nothing is dropped).
    func finishExport(
        _ export: MirrorRequest, _ work: MirrorRequest.ExportWork, context: inout MirrorContext
    ) {
        advanceExport(work, context: &context)
        context.syncData.reexport = work.failedModels.sorted()
        context.syncData.pendingDeletes = work.failedDeletes.sorted()
        writeAll(context)
        effects.append(.trace(kind: "export.done", details: [
            TraceField("saved", .int(Int64(work.models.count - work.failedModels.count))),
            TraceField("deleted",
                .int(Int64(work.deletes.count - work.failedDeletes.count))),
            TraceField("failed",
                .int(Int64(work.failedModels.count + work.failedDeletes.count))),
        ], rules: ["MIR-13"]))
        if let error = work.firstError,
           error.code == .zoneNotFound || error.code == .userDeletedZone {
            zoneMissing(error, export, context: &context)
            return
        }
        if let error = work.firstError {
            scheduleRetry(error, export)
            pass(["mirror.export.done", "sync.done"], then: .finish, export, context: &context)
            return
        }
        failureCleared()
        pass(["mirror.export.done", "sync.done"], then: .finish, export, context: &context)
    }

    private func advanceExport(_ work: MirrorRequest.ExportWork, context: inout MirrorContext) {
        context.syncData.exportedThrough = max(context.syncData.exportedThrough,
            work.position)
        // Objects of batch deletes have no tombstone: their names go once exported. Only
        // names this export deleted: an object deleted while the export was in flight (its
        // insert in this export, its deletion after it) keeps its name, so that the next
        // export deletes its record (MIR-12; forgetting it left the record in iCloud).
        let deleted = Set(work.deletes)
        for id in context.syncData.bindings.sortedModels where !context.store.contains(id) {
            if let name = context.syncData.bindings.name(of: id), deleted.contains(name),
                !work.failedDeletes.contains(name)
            {
                context.syncData.forget(id)
            }
        }
    }

    /// MIR-29: `initializeCloudKitSchema()`: a sample record of every entity with every field,
    /// saved and deleted again, so development creates every `CD_` type and field.
    func initializeSchema(
        _ request: MirrorRequest, _ work: MirrorRequest.SchemaWork, context: inout MirrorContext
    ) {
        let zone = zone(context)
        var saves: [RecordSave] = []
        for entity in mirroredEntities {
            var fields: SortedMap<String,
            CloudValue> = [MirrorCodec.entityNameField: .string(entity.name)]
            for attribute in entity.attributes {
                fields[MirrorCodec.field(attribute.name)] = Self.sample(attribute.type)
            }
            for relationship in entity.relationships where !relationship.isToMany {
                fields[MirrorCodec.field(relationship.name)] = .string("")
            }
            let name = context.makeRandomRecordName()
            work.sampleNames.append(name)
            saves.append(RecordSave(
                record: CloudRecord(
                    recordType: MirrorCodec.layout.recordType(ofEntity: entity.name),
                    recordName: name, zone: zone, fields: fields),
                changedKeys: fields.keys.sorted()))
        }
        effects.append(.trace(kind: "schema.initializing", details: [
            TraceField("recordTypes", .list(mirroredEntities.map { .string("CD_" + $0.name) })),
        ], rules: ["MIR-29"]))
        work.batches = [(saves, []), ([], work.sampleNames)]
        pass(["upload.start"], then: .sendBatch, request, context: &context)
    }

    static func sample(_ type: AttributeType) -> CloudValue {
        switch type {
        case .string, .uuid, .url: return .string("")
        case .int, .bool: return .int(0)
        case .double: return .double(0)
        case .date: return .date(millisecondsSince1970: 0)
        case .data: return .bytes([])
        }
    }

    func initializeSchemaAnswered(
        _ response: CloudResponse, _ request: MirrorRequest, _ work: MirrorRequest.SchemaWork,
        context: inout MirrorContext
    ) {
        if case .failure(let error) = response {
            effects.append(.trace(kind: "schema.initialize-failed", details: [
                TraceField("error", .string(error.code.description)),
            ], rules: ["MIR-29"]))
            work.batches = []
        } else if case .recordsModified(let results) = response,
                  let failed = results.first(where: {
                      if case .failed = $0 { return true } else { return false }
                  }),
                  case .failed(_, let error) = failed {
            effects.append(.trace(kind: "schema.initialize-failed", details: [
                TraceField("error", .string(error.code.description)),
            ], rules: ["MIR-29", "MIR-30"]))
        }
        sendBatch(request, context: &context)
    }
}
