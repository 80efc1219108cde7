import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension NaiveEngine {
    /// The app saved: each inserted or updated model becomes a save of a freshly built record,
    /// each deleted one a delete, each its own operation, sent at once alongside whatever else
    /// runs, with no debounce and no batching (NAIVE-4, NAIVE-5).
    func storeSaved(context: inout NaiveContext) {
        let entries = context.store.history(after: historyPosition)
        historyPosition = context.store.lastHistoryPosition
        guard autosync else {
            effects.append(.trace(kind: "save.not-sent", details: [
                TraceField("reason", .string("autosync off")),
            ], rules: []))
            return
        }
        var created: [NaiveOperation] = []
        for entry in entries where entry.author != Self.author
            && entry.author != Self.unobservedAuthor {
            for change in entry.changes {
                if let operation = operation(for: change, context: &context) {
                    created.append(operation)
                }
            }
        }
        guard !created.isEmpty else { return }
        for operation in created {
            context.syncData.unsentOperations.append(UnsentOperation(
                operation: operation.number, recordName: operation.recordName ?? "",
                kind: operation.ledgerKind))
        }
        // The record names and the ledger reach the disk before any operation passes a probe.
        writeSyncData(context)
        for operation in created {
            start(operation, context: &context)
        }
    }

    private func operation(
        for change: HistoryChange, context: inout NaiveContext
    ) -> NaiveOperation? {
        switch change {
        case .inserted(let id, let entityName):
            guard let entity = schema.entity(named: entityName), entity.isSynchronized,
                  let model = context.store.model(id) else { return nil }
            let known = context.syncData.bindings.name(of: id)
            let name = known ?? assignName(id, entity: entity, context: &context)
            return makeSave(model, entity: entity, name: name,
                            changedKeys: entity.synchronizedAttributes.map(\.name),
                            isFirst: known == nil)
        case .updated(let id, let entityName, let keys):
            guard let entity = schema.entity(named: entityName), entity.isSynchronized,
                  let model = context.store.model(id) else { return nil }
            let synchronized = entity.synchronizedAttributes.map(\.name)
            let kept = keys.filter { synchronized.contains($0) }
            guard !kept.isEmpty else { return nil }
            let known = context.syncData.bindings.name(of: id)
            let name = known ?? assignName(id, entity: entity, context: &context)
            return makeSave(model, entity: entity, name: name, changedKeys: kept,
                            isFirst: known == nil)
        case .deleted(let id, let entityName, _):
            guard let name = context.syncData.bindings.name(of: id) else { return nil }
            context.syncData.bindings.forget(id)
            deletions[name] = .some(nil)
            if isLiteral {
                effects.append(.trace(kind: "delete.not-sent", details: [
                    TraceField("recordName", .string(name)),
                    TraceField("note", .string("the article has no delete call")),
                ], rules: ["NAIVE-18"]))
                return nil
            }
            let operation = makeOperation(.delete(recordName: name, entity: entityName))
            effects.append(.trace(kind: "delete.created", details: [
                TraceField("operation", .int(Int64(operation.number))),
                TraceField("recordName", .string(name)),
            ], rules: ["NAIVE-4", "NAIVE-5"]))
            return operation
        }
    }

    /// NAIVE-1: `<Entity>_<UUID>`, the UUID from the device's seeded stream; an identity is
    /// ignored (NAIVE-13).
    private func assignName(
        _ id: ModelID, entity: EntityDescription, context: inout NaiveContext
    ) -> String {
        let name = "\(entity.name)_\(context.makeRandomRecordName())"
        context.syncData.bindings.bind(id, to: name)
        namedThisLaunch.insert(id)
        var rules = ["NAIVE-1"]
        if !entity.identity.isEmpty { rules.append("NAIVE-13") }
        effects.append(.trace(kind: "record.named", details: [
            TraceField("model", .string(id.description)),
            TraceField("recordName", .string(name)),
        ], rules: rules))
        return name
    }

    private func makeSave(
        _ model: Model, entity: EntityDescription, name: String, changedKeys: [String],
        isFirst: Bool
    ) -> NaiveOperation {
        let sorted = changedKeys.sorted()
        var captured: [String: AttributeValue?] = [:]
        for key in sorted { captured[key] = .some(model.values[key]) }
        let save = NaiveSave(recordName: name, entity: entity.name,
                             fields: NaiveRecords.fields(of: model, entity: entity),
                             changedKeys: sorted, captured: captured, isFirstSave: isFirst)
        let operation = makeOperation(.save(save))
        effects.append(.trace(kind: "save.created", details: [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("recordName", .string(name)),
            TraceField("fields", .list(save.fields.keys.sorted().map { .string($0) })),
            TraceField("changedKeys", .list(save.changedKeys.map { .string($0) })),
            TraceField("policy", .string(isLiteral ? "ifServerRecordUnchanged" : "allKeys")),
        ], rules: isLiteral ? ["NAIVE-5"] : ["NAIVE-4", "NAIVE-5"]))
        return operation
    }

    /// The save's or delete's request leaves: one record, `allKeys`, fire and forget.
    func sendFirst(
        _ operation: NaiveOperation, context: inout NaiveContext
    ) {
        switch operation.job {
        case .save(let save):
            send(saveRequest(save, context: context), for: operation)
            leftTheDevice(operation, context: &context)
        case .delete(let recordName, _):
            send(.modifyRecords(scope: .privateDatabase, zone: zone(context), saves: [],
                                deletes: [recordName], policy: .allKeys, atomic: false),
                 for: operation)
            leftTheDevice(operation, context: &context)
        case .download:
            send(.fetchDatabaseChanges(scope: .privateDatabase,
                token: context.syncData.databaseToken),
                 for: operation)
        case .setup:
            sendSetupStep(operation, context: &context)
        }
    }

    private func saveRequest(_ save: NaiveSave, context: NaiveContext) -> CloudRequest {
        let zone = zone(context)
        let record = CloudRecord(recordType: save.entity, recordName: save.recordName,
                                 zone: zone, fields: save.fields)
        // The literal `save(_:)` follows `ifServerRecordUnchanged` (NAIVE-17).
        return .modifyRecords(scope: .privateDatabase, zone: zone,
                              saves: [RecordSave(record: record,
                                  changedKeys: save.changedKeys)],
                              deletes: [], policy: isLiteral ? .ifServerRecordUnchanged : .allKeys,
                              atomic: false)
    }

    /// The request left: the ledger forgets it, and the operation passes `upload.sent`.
    private func leftTheDevice(
        _ operation: NaiveOperation, context: inout NaiveContext
    ) {
        context.syncData.unsentOperations.removeAll { $0.operation == operation.number }
        writeSyncData(context)
        pass(["upload.sent"], then: .wait, operation, context: &context)
    }

    /// A retry of a save or delete: the captured request again (NAIVE-6); a save whose record
    /// a newer save already wrote overwrites it with the older values (NAIVEW-4).
    func resendUpload(
        _ operation: NaiveOperation, _ request: CloudRequest, context: inout NaiveContext
    ) {
        if case .save(let save) = operation.job, let newer = lastSucceededSave[save.recordName],
           newer > operation.number {
            effects.append(.trace(kind: "retry.stale", details: [
                TraceField("operation", .int(Int64(operation.number))),
                TraceField("recordName", .string(save.recordName)),
                TraceField("newerSave", .int(Int64(newer))),
                TraceField("keys", .list(save.changedKeys.map { .string($0) })),
            ], rules: ["NAIVEW-4", "NAIVE-6"]))
            staleRetries.insert(operation.number)
        }
        send(request, for: operation)
        leftTheDevice(operation, context: &context)
    }

    /// A save's or delete's answer: done, kept for a retry (NAIVE-6), or dropped.
    func uploadAnswered(
        _ response: CloudResponse, _ operation: NaiveOperation,
        context: inout NaiveContext
    ) {
        let error: CloudError?
        switch response {
        case .recordsModified(let results):
            switch results.first {
            case .saved(let record)?:
                error = nil
                saveDone(record, operation, context: context)
            case .deleted(let name)?:
                error = nil
                deleteDone(name, operation, now: context.now)
            case .failed(_, let itemError)?:
                error = itemError
            case nil:
                error = CloudError(.internalError, message: "an empty answer")
            }
        case .failure(let operationError):
            error = operationError
        default:
            error = CloudError(.internalError, message: "an unexpected answer")
        }
        guard let error else {
            pass(["upload.done", "sync.done"], then: .finish, operation,
                 context: &context)
            return
        }
        uploadFailed(error, operation, context: &context)
    }

    /// NAIVE-5: the record is in the cloud; a record that was gone came back in full (NAIVEW-5).
    private func saveDone(
        _ record: CloudRecord, _ operation: NaiveOperation, context: NaiveContext
    ) {
        seenInCloud[record.recordName] = (record.zone.name, context.now)
        lastSucceededSave[record.recordName] = max(
            lastSucceededSave[record.recordName] ?? 0, operation.number)
        compareApplicationOrder(record, operation)
        noteSaveAfterDeletion(record, operation)
        droppedSaves[record.recordName] = nil
        effects.append(.trace(kind: "save.done", details: [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("recordName", .string(record.recordName)),
            TraceField("changeTag", .string(record.changeTag ?? "")),
        ], rules: ["NAIVE-5"]))
        if case .save(let save) = operation.job, !save.isFirstSave,
           record.creationTime == record.modificationTime {
            // The record was gone (deleted elsewhere, and the deletion never arrived):
            // the whole-record save created it again in full.
            effects.append(.trace(kind: "save.recreated-record", details: [
                TraceField("recordName", .string(record.recordName)),
                TraceField("fields",
                    .list(record.fields.keys.sorted().map { .string($0) })),
            ], rules: ["NAIVE-4", "NAIVEW-5"]))
        }
    }

    /// NAIVE-DR-2: of two answered saves of one record, the older was applied last when the
    /// order of their modification times reverses the order of their operations.
    private func compareApplicationOrder(_ record: CloudRecord, _ operation: NaiveOperation) {
        guard let applied = record.modificationTime else { return }
        let name = record.recordName
        guard let last = lastAnsweredSave[name] else {
            lastAnsweredSave[name] = (operation.number, applied)
            return
        }
        // Kept: the save iCloud applied last, which the next answer is compared with.
        if applied > last.applied { lastAnsweredSave[name] = (operation.number, applied) }
        guard last.operation != operation.number, last.applied != applied,
              (last.operation < operation.number) != (last.applied < applied),
              !staleRetries.contains(min(last.operation, operation.number))
        else { return }
        effects.append(.trace(kind: "save.applied-out-of-order", details: [
            TraceField("recordName", .string(name)),
            TraceField("olderSave", .int(Int64(min(last.operation, operation.number)))),
            TraceField("newerSave", .int(Int64(max(last.operation, operation.number)))),
        ], rules: ["NAIVE-5", "NAIVE-DR-2"]))
    }

    /// NAIVE-DR-2: a save older than the app's deletion of its record was applied after that
    /// deletion's answer came, so after the deletion: it created the record again.
    private func noteSaveAfterDeletion(_ record: CloudRecord, _ operation: NaiveOperation) {
        guard let deletion = answeredDeletions[record.recordName],
            deletion.operation > operation.number,
            let applied = record.modificationTime, applied > deletion.at else { return }
        effects.append(.trace(kind: "save.applied-after-deletion", details: [
            TraceField("recordName", .string(record.recordName)),
            TraceField("olderSave", .int(Int64(operation.number))),
            TraceField("newerDeletion", .int(Int64(deletion.operation))),
            TraceField("note", .string("the save created again the record the deletion "
                + "removed")),
        ], rules: ["NAIVE-5", "NAIVE-DR-2"]))
    }

    /// NAIVE-5: the record is gone from the cloud.
    private func deleteDone(
        _ name: String, _ operation: NaiveOperation, now: SimTime
    ) {
        seenInCloud[name] = nil
        droppedDeletes.remove(name)
        if deletions[name] != nil { deletions[name] = .some(now) }
        answeredDeletions[name] = (operation.number, now)
        effects.append(.trace(kind: "delete.done", details: [
            TraceField("operation", .int(Int64(operation.number))),
            TraceField("recordName", .string(name)),
        ], rules: ["NAIVE-5"]))
    }

    /// NAIVE-6: a retryable error schedules the same request again; any other drops it.
    private func uploadFailed(
        _ error: CloudError, _ operation: NaiveOperation, context: inout NaiveContext
    ) {
        if let delay = Self.retryDelay(for: error) {
            traceRetry(error, delay: delay, operation)
            // The retry waits in memory: a kill before it leaves loses it (NAIVEW-2).
            context.syncData.unsentOperations.append(UnsentOperation(
                operation: operation.number, recordName: operation.recordName ?? "",
                kind: operation.ledgerKind))
            writeSyncData(context)
            pass(["upload.done", "naive.retry.scheduled", "sync.done"],
                 then: .scheduleRetry(delay), operation, context: &context)
            return
        }
        let rules = ["NAIVE-6"] + uploadDropRules(error, context: context)
        if case .delete(let recordName, _) = operation.job { deletions[recordName] = nil }
        if rules.contains("NAIVEW-3") {
            switch operation.job {
            case .save(let save):
                droppedSaves[save.recordName, default: [:]].merge(save.captured) { $1 }
            case .delete(let recordName, _):
                droppedDeletes.insert(recordName)
            case .setup, .download:
                preconditionFailure("naive: an upload's failure for a setup or a download")
            }
        }
        traceDrop(error, operation, rules: rules)
        pass(["upload.done", "naive.error.logged", "sync.done"], then: .finish, operation,
             context: &context)
    }
}
