import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension HistoryEngine {
    /// A push phase (HIS-17): guarded by HIS-11/HIS-12 unless `push()` reserved it already.
    func startPush(_ operation: HistoryOperation, context: inout HistoryContext) {
        let upload = HistoryPushState()
        operation.stage = .push(upload)
        if !operation.holdsPushFlag {
            // The push step of `enable()` or `sync` calls `push()` like any caller.
            if let pausedFor {
                effects.append(.trace(kind: "push.paused", details: [
                    TraceField("trigger", .string(operation.trigger)),
                    TraceField("reason", .string(pausedFor.rawValue)),
                ], rules: ["HIS-12"]))
                nextPhase(operation, context: &context)
                return
            }
            if isPushing {
                pushPending = true
                effects.append(.trace(kind: "push.deduplicated", details: [
                    TraceField("trigger", .string(operation.trigger)),
                ], rules: ["HIS-11"]))
                nextPhase(operation, context: &context)
                return
            }
            isPushing = true
            operation.holdsPushFlag = true
        }
        let changes = readChanges(context: &context)
        var probes = uploadProbes(operation)
        guard !changes.isEmpty else {
            effects.append(.trace(kind: "push.completed", details: [
                TraceField("count", .int(0)),
            ], rules: ["HIS-17"]))
            probes += ["upload.start"]
            pass(probes, then: .pushDone, operation, context: &context)
            return
        }
        upload.requests = buildRequests(changes, context: &context)
        // Names, owners: on disk before any request leaves (the seed keeps them in the model).
        effects.append(context.writeAll)
        if let staged = stagedToken {
            effects.append(.trace(kind: "token.staged", details: [
                TraceField("token", .string(staged.description)),
            ], rules: ["HIS-7"]))
            probes.append("history.token.staged")
        }
        probes.append("upload.start")
        pass(probes, then: .pushNext, operation, context: &context)
    }

    /// HIS-17 steps 2–6: owners through the parent chain, grouped by database; inserts
    /// (`allKeys`), updates (`changedKeys`, on `privateRecordData`), deletions; one request
    /// each, private first.
    func buildRequests(_ changes: HistoryChangeSet,
        context: inout HistoryContext) -> [HistoryPushRequest] {
        var byOwner: [String: (inserts: [(ModelID, RecordSave)], updates: [(ModelID, RecordSave)],
            deletes: [String])] = [:]
        let own = Self.defaultOwner
        func owner(_ id: ModelID) -> String { context.syncData.owners[id] ?? own }
        for id in changes.insertions {
            guard let model = context.store.model(id),
                let entity = schema.entity(named: model.entity) else { continue }
            let effective = resolveOwner(id, context: &context)
            let name = recordName(of: id, entity: entity, context: &context)
            let save = recordSave(model, entity: entity, name: name, keys: nil, owner: effective,
                                  base: nil, context: &context)
            byOwner[effective, default: ([], [], [])].inserts.append((id, save))
        }
        for update in changes.updates {
            guard let model = context.store.model(update.model),
                let entity = schema.entity(named: model.entity) else { continue }
            let effective = resolveOwner(update.model, context: &context)
            let name = recordName(of: update.model, entity: entity, context: &context)
            let save = recordSave(model, entity: entity, name: name, keys: update.keys,
                owner: effective,
                                  base: context.syncData.systemFields[update.model],
                                  context: &context)
            byOwner[effective, default: ([], [], [])].updates.append((update.model, save))
        }
        for deletion in changes.deletions {
            byOwner[owner(deletion.model), default: ([], [],
                [])].deletes.append(deletion.recordName)
        }
        var requests: [HistoryPushRequest] = []
        let owners = byOwner.keys.sorted { ($0 == own ? 0 : 1, $0) < ($1 == own ? 0 : 1, $1) }
        for ownerName in owners {
            guard let group = byOwner[ownerName] else { continue }
            let scope: DatabaseScope = ownerName == own ? .privateDatabase : .sharedDatabase
            let zone = zone(owner: ownerName == own ? nil : ownerName, context)
            if !group.inserts.isEmpty {
                requests.append(HistoryPushRequest(kind: .inserts, scope: scope, zone: zone,
                    saves: group.inserts.map(\.1), deletes: [], models: group.inserts.map(\.0)))
            }
            if !group.updates.isEmpty {
                requests.append(HistoryPushRequest(kind: .updates, scope: scope, zone: zone,
                    saves: group.updates.map(\.1), deletes: [], models: group.updates.map(\.0)))
            }
            if !group.deletes.isEmpty {
                requests.append(HistoryPushRequest(kind: .deletions, scope: scope, zone: zone,
                    saves: [], deletes: group.deletes, models: []))
            }
        }
        return requests
    }

    /// HIS-19: the effective owner, through the parent chain (a visited set against cycles);
    /// a child whose effective owner is a sharer is rewritten to it, written back locally.
    func resolveOwner(_ id: ModelID, context: inout HistoryContext) -> String {
        var visited: Set<ModelID> = []
        var current = id
        var found: String?
        while visited.insert(current).inserted {
            if let owner = context.syncData.owners[current] { found = owner; break }
            guard let model = context.store.model(current),
                let entity = schema.entity(named: model.entity),
                  let parent = HistoryRecords.parentRelationship(of: entity),
                  let next = model.toOne[parent.name] else { break }
            current = next
        }
        guard let owner = found else { return Self.defaultOwner }
        if context.syncData.owners[id] != owner {
            context.syncData.owners[id] = owner
            effects.append(.trace(kind: "owner.inherited", details: [
                TraceField("model", .string(id.description)),
                TraceField("owner", .string(owner)),
            ], rules: ["HIS-19"]))
        }
        return owner
    }

    /// One record of a push: every uploaded field for an insert, only `keys` for an update
    /// (rebuilt on the system fields, HIS-4); the parent as `parentRecordID` (HIS-3).
    func recordSave(_ model: Model, entity: EntityDescription, name: String, keys: [String]?,
        owner: String,
                    base: CloudRecord?, context: inout HistoryContext) -> RecordSave {
        let zone = zone(owner: owner == Self.defaultOwner ? nil : owner, context)
        let encoded = HistoryRecords.fields(of: model, entity: entity, keys: keys)
        var record = base ?? CloudRecord(recordType: entity.name, recordName: name, zone: zone)
        record.zone = zone
        record.fields = encoded.fields
        var changed = encoded.written
        if let parent = HistoryRecords.parentRelationship(of: entity),
            keys?.contains(parent.name) ?? true {
            if let target = model.toOne[parent.name],
                let parentName = context.syncData.bindings.name(of: target) {
                record.parent = parentName
            } else if let target = model.toOne[parent.name],
                      let targetModel = context.store.model(target),
                      let targetEntity = schema.entity(named: targetModel.entity) {
                record.parent = recordName(of: target, entity: targetEntity, context: &context)
            } else {
                record.parent = nil
            }
            changed.append(parent.name)
        }
        if !encoded.dropped.isEmpty {
            effects.append(.trace(kind: "record.values-cleared", details: [
                TraceField("recordName", .string(name)),
                TraceField("keys", .list(encoded.dropped.map { .string($0) })),
                TraceField("note",
                    .string("UUIDs and relationships other than the parent become .null")),
            ], rules: ["HIS-3", "HISW-9"]))
        }
        let parentName = HistoryRecords.parentRelationship(of: entity)?.name
        return RecordSave(record: record, changedKeys: changed.filter { $0 != parentName })
    }

    /// Sends the push's next request, or ends the push (every request succeeded).
    func pushNext(_ operation: HistoryOperation, context: inout HistoryContext) {
        let upload = operation.upload
        guard upload.requestIndex < upload.requests.count else {
            pushDone(operation, context: &context)
            return
        }
        let request = upload.requests[upload.requestIndex]
        let names = request.saves.map(\.record.recordName) + request.deletes
        let repeated = names.filter(writtenByFailedPush.contains)
        var rules = ["HIS-1", "HIS-17", "HIS-20"]
        if request.kind != .deletions { rules += ["HIS-2", "HIS-3"] }
        effects.append(.trace(kind: "push.request", details: [
            TraceField("kind", .string(request.kind.rawValue)),
            TraceField("database", .string(request.scope.rawValue)),
            TraceField("zone", .string(request.zone.description)),
            TraceField("policy", .string(request.kind == .updates ? "changedKeys" : "allKeys")),
            TraceField("records", .list(names.map { .string($0) })),
        ], rules: rules))
        if !repeated.isEmpty {
            effects.append(.trace(kind: "push.repeated", details: [
                TraceField("records", .list(repeated.map { .string($0) })),
                TraceField("note",
                    .string("written again after a partial failure: values written elsewhere "
                    + "meanwhile are overwritten")),
            ], rules: ["HISW-2", "HIS-18"]))
            for name in repeated { writtenByFailedPush.remove(name) }
        }
        send(request.request, for: operation)
        upload.sentRequest = true
        pass(["upload.sent"], then: .wait, operation, context: &context)
    }

    /// A push request's answer: the next request, or the end of the push on a failure.
    func pushAnswered(_ response: CloudResponse, _ operation: HistoryOperation,
                      context: inout HistoryContext) {
        if let rebuild = operation.rebuild, rebuild.zonePending {
            rebuildZoneAnswered(response, rebuild, operation, context: &context)
            return
        }
        let upload = operation.upload
        guard upload.requestIndex < upload.requests.count else {
            preconditionFailure("history: an answer after the push's last request")
        }
        let request = upload.requests[upload.requestIndex]
        let failure: (error: CloudError, perItem: Bool)?
        switch response {
        case .recordsModified(let results):
            failure = readResults(results, request, operation, context: &context)
        case .failure(let error):
            failure = (error, false)
        default:
            failure = (CloudError(.internalError, message: "an unexpected answer"), false)
        }
        if let failure {
            pushFailed(failure.error, perItem: failure.perItem, request, operation,
                context: &context)
            return
        }
        upload.requestIndex += 1
        pass(["upload.done"], then: .pushNext, operation, context: &context)
    }

    /// Each record's result: system fields kept (HIS-4), the written names noted (HISW-2);
    /// returns the request's failure as HIS-33 reads it, if any.
    private func readResults(_ results: [ItemResult], _ request: HistoryPushRequest,
        _ operation: HistoryOperation,
        context: inout HistoryContext) -> (error: CloudError, perItem: Bool)? {
        let upload = operation.upload
        var failure: (error: CloudError, perItem: Bool)?
        var wrote = false
        var itemCodes: [CloudErrorCode] = []
        for (index, result) in results.enumerated() {
            switch result {
            case .saved(let record):
                upload.writtenRecords.append(record.recordName)
                let model = index < request.models.count
                    ? request.models[index]
                    : context.syncData.bindings.model(named: record.recordName)
                if let model, recordSaved(record, model: model, request: request,
                    context: &context) {
                    wrote = true
                }
            case .deleted(let name):
                upload.writtenRecords.append(name)
                if let model = context.syncData.bindings.model(named: name) {
                    noteOtherAccountDeletion(name, model: model, request: request,
                        context: context)
                    context.syncData.systemFields[model] = nil
                }
            case .failed(_, let error):
                if failure == nil { failure = (error, true) }
                itemCodes.append(error.code)
            }
        }
        // HIS-33's choice: a partial failure whose items all fail with the same zone or
        // account code is that code (the zone is gone, the quota is full).
        if let first = itemCodes.first, itemCodes.allSatisfy({ $0 == first }),
           [.zoneNotFound, .userDeletedZone,
               .quotaExceeded].contains(first), let item = failure?.error {
            failure = (item, false)
        }
        if wrote {
            effects.append(.trace(kind: "system-fields.stored", details: [
                TraceField("records", .int(Int64(request.models.count))),
            ], rules: ["HIS-4"]))
            writeSyncData(context)
        }
        return failure
    }

    /// One saved record of the push; returns whether its system fields were stored (HIS-4).
    private func recordSaved(_ record: CloudRecord, model: ModelID, request: HistoryPushRequest,
        context: inout HistoryContext) -> Bool {
        var wrote = false
        if request.kind == .inserts {
            // HIS-4: the system fields go into privateRecordData, written as
            // the sync author (never pushed).
            var fields = record
            fields.fields = [:]
            context.syncData.systemFields[model] = fields
            wrote = true
        } else {
            noteOtherAccountEdit(record, model: model, request: request,
                context: context)
        }
        if request.kind != .inserts,
            record.creationTime == record.modificationTime {
            effects.append(.trace(kind: "push.recreated-record", details: [
                TraceField("recordName", .string(record.recordName)),
                TraceField("fields",
                    .list(record.fields.keys.sorted().map { .string($0) })),
                TraceField("note",
                    .string("the record was gone: the changedKeys update created "
                    + "it with only those keys")),
            ], rules: ["HISW-8", "HIS-17"]))
        }
        return wrote
    }

    /// HIS-18: a failed request stops the push with the token staged; recovery decides next.
    private func pushFailed(_ error: CloudError, perItem: Bool, _ request: HistoryPushRequest,
        _ operation: HistoryOperation, context: inout HistoryContext) {
        let upload = operation.upload
        let syncError = HistoryRecovery.syncError(error, perItem: perItem)
        upload.failure = (syncError, error)
        var rules = ["HIS-17", "HIS-18", "HIS-33"]
        if error.code == .limitExceeded { rules += ["HIS-41", "HISW-13"] }
        effects.append(.trace(kind: "push.failed", details: [
            TraceField("request", .string(request.kind.rawValue)),
            TraceField("error", .string(error.code.description)),
            TraceField("syncError", .string(syncError.rawValue)),
            TraceField("note", .string("the push stops; the token stays staged")),
        ], rules: rules))
        for name in upload.writtenRecords { writtenByFailedPush.insert(name) }
        let probes = recover(error, perItem: perItem, during: operation,
                             context: &context)
        pass(["upload.done"] + probes, then: .pushDone, operation, context: &context)
    }

    /// HISW-12: an update of a model whose system fields came from another account reached
    /// the new account's zone, which exists already: the edit went up as a partial
    /// `.changedKeys` record (no `zoneNotFound`, so no HIS-28 upload of everything).
    private func noteOtherAccountEdit(_ record: CloudRecord, model: ModelID,
                                      request: HistoryPushRequest, context: HistoryContext) {
        guard request.kind == .updates, request.scope == .privateDatabase,
            context.syncData.owners[model] == nil,
            let base = context.syncData.systemFields[model],
            base.zone.owner != record.zone.owner else { return }
        effects.append(.trace(kind: "push.other-account-edit", details: [
            TraceField("recordName", .string(record.recordName)),
            TraceField("from", .string(base.zone.owner)),
            TraceField("into", .string(record.zone.owner)),
            TraceField("note", .string("the new account already has the zone: the edit goes "
                + "up as a partial .changedKeys record")),
        ], rules: ["HISW-12", "HIS-17"]))
    }

    /// HISW-12: a deletion of a model whose system fields came from another account went to
    /// the new account's zone, which deletes nothing of the old one's: its record stays.
    private func noteOtherAccountDeletion(_ name: String, model: ModelID,
        request: HistoryPushRequest, context: HistoryContext) {
        guard request.scope == .privateDatabase, context.syncData.owners[model] == nil,
            let base = context.syncData.systemFields[model],
            base.zone.owner != request.zone.owner else { return }
        effects.append(.trace(kind: "push.other-account-deletion", details: [
            TraceField("recordName", .string(name)),
            TraceField("from", .string(base.zone.owner)),
            TraceField("into", .string(request.zone.owner)),
            TraceField("note", .string("the deletion went to the new account's zone: the "
                + "record stays in the old one's")),
        ], rules: ["HISW-12", "HIS-17"]))
    }

    /// The end of a push phase: `markChangesAsPushed` after success (HIS-17 step 7), the
    /// staged token left after a failure (HISW-1), then HIS-11's compensating run.
    func pushDone(_ operation: HistoryOperation, context: inout HistoryContext) {
        let upload = operation.upload
        if let rebuild = operation.rebuild {
            let done = upload.sentRequest ? [] : ["upload.done"]
            if upload.failure == nil {
                effects.append(.trace(kind: "rebuild.uploaded", details: [
                    TraceField("records",
                        .int(Int64(upload.requests.reduce(0) { $0 + $1.saves.count }))),
                ], rules: [rebuild.rule]))
                reportedError = nil
            }
            upload.requests = []
            pass(done, then: .nextPhase, operation, context: &context)
            return
        }
        var probes: [String] = []
        if let failure = upload.failure {
            stageLeftByFailure = stagedToken != nil
            effects.append(.trace(kind: "push.ended-with-error", details: [
                TraceField("syncError", .string(failure.error.rawValue)),
                TraceField("stagedToken", .string(stagedToken?.description ?? "nil")),
            ], rules: ["HIS-18", "HIS-7"]))
        } else {
            if !upload.requests.isEmpty {
                markAsPushed(context: &context)
                probes.append("history.token.committed")
                effects.append(.trace(kind: "push.completed", details: [
                    TraceField("count",
                        .int(Int64(upload.requests.reduce(0) {
                            $0 + $1.saves.count + $1.deletes.count
                        }))),
                ], rules: ["HIS-17"]))
            }
            reportedError = nil
            if !upload.requests.isEmpty { writtenByFailedPush = [] }
        }
        // Each answered request passed its own `upload.done`; a push that sent none passes it here.
        if !upload.sentRequest { probes.insert("upload.done", at: 0) }
        upload.requests = []
        // HIS-11: one compensating run if `pushPending` was set meanwhile.
        if operation.holdsPushFlag {
            if operation.isCompensating {
                isPushing = false
                if pushPending {
                    effects.append(.trace(kind: "push.pending-left", details: [
                        TraceField("note",
                            .string("a push asked for during the compensating run waits for the "
                            + "next trigger")),
                    ], rules: ["HISW-7", "HIS-11"]))
                }
            } else if pushPending && isEnabled {
                pushPending = false
                let compensating = makeOperation("compensating", [.push])
                compensating.holdsPushFlag = true
                compensating.isCompensating = true
                effects.append(.trace(kind: "push.compensating", details: [], rules: ["HIS-11"]))
                runner.enqueueFirst(compensating)
            } else {
                isPushing = false
            }
        }
        pass(probes, then: .nextPhase, operation, context: &context)
    }

    /// The zone of a rebuild is created again (HIS-27 step 3, HIS-28): then the upload.
    private func rebuildZoneAnswered(_ response: CloudResponse, _ rebuild: HistoryRebuildState,
        _ operation: HistoryOperation, context: inout HistoryContext) {
        rebuild.zonePending = false
        var failure: CloudError?
        switch response {
        case .failure(let error): failure = error
        case .zonesModified(_, _, let failed): failure = failed.first?.error
        default: break
        }
        let rule = rebuild.rule
        if let failure {
            rebuild.upload.failure = (HistoryRecovery.syncError(failure), failure)
            let probes = recover(failure, perItem: false, during: operation, context: &context)
            pass(["upload.done"] + probes, then: .pushDone, operation, context: &context)
            return
        }
        effects.append(.trace(kind: "rebuild.zone-created", details: [], rules: [rule, "HIS-1"]))
        pass(["upload.done"], then: .pushNext, operation, context: &context)
    }
}
