import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension MirrorEngine {
    /// Resets sync (MIR-17..20): with `deleteRows`, every mirrored entity's local rows are
    /// batch-deleted (the purge bypasses the history, so nothing is exported for them); the
    /// zone's metadata is forgotten, and the next setup creates the zone again.
    func reset(
        reason: String, rules: [String], deleteRows: Bool, context: inout MirrorContext
    ) {
        var removed = 0
        if deleteRows {
            for entity in mirroredEntities {
                removed += context.store.batchDelete(entity: entity.name, where: [:]).count
            }
        }
        let account = context.syncData.userRecordName
        let hadAccount = context.syncData.hadAccount
        context.syncData.forgetCloud(through: context.store.lastHistoryPosition)
        context.syncData.userRecordName = account
        context.syncData.hadAccount = hadAccount
        if !deleteRows {
            // Nothing local is removed: every object is exported again to the zone.
            context.syncData.reexport = synchronizedModels(context.store)
        }
        writeAll(context)
        effects.append(.trace(kind: "sync.reset", details: [
            TraceField("reason", .string(reason)),
            TraceField("rowsRemoved", .int(Int64(removed))),
        ], rules: rules))
    }

    /// MIR-22: a failed request is retried by the scheduler after its retry-after, or after
    /// 60 s without one (and earlier at a launch, push or save); nothing is dropped. The state
    /// shows the failure until a request succeeds.
    func requestFailed(
        _ error: CloudError, _ request: MirrorRequest, context: inout MirrorContext
    ) {
        scheduleRetry(error, request)
        abandon(request, context: &context)
    }

    /// Schedules the retry of a failed request and shows the failure (MIR-22).
    func scheduleRetry(
        _ error: CloudError, _ request: MirrorRequest
    ) {
        let delay = retryDelay(for: error)
        switch error.code {
        case .networkUnavailable, .networkFailure:
            failureState = EngineState("waiting", "network")
        case .requestRateLimited, .serviceUnavailable, .zoneBusy:
            failureState = EngineState("waiting", "retryAfter")
        default:
            failureState = EngineState("error", error.code.description)
        }
        if !retryKinds.contains(request.kind) { retryKinds.append(request.kind) }
        effects.append(.setTimer(.mirrorRetry, after: delay))
        effects.append(.trace(kind: "request.failed", details: [
            TraceField("request", .string(request.kind.rawValue)),
            TraceField("error", .string(error.code.description)),
            TraceField("retryAfter", .int(delay.microseconds)),
        ], rules: ["MIR-22"]))
    }

    /// MIR-22: the error's retry-after, or 60 s without one.
    func retryDelay(for error: CloudError) -> SimTime {
        error.retryAfter ?? Self.defaultRetryDelay
    }

    /// A request succeeded: the failure the state showed is over.
    func failureCleared() {
        guard let failed = failureState else { return }
        failureState = nil
        effects.append(.trace(kind: "failure.cleared", details: [
            TraceField("was", .string(failed.description)),
        ], rules: ["MIR-22"]))
    }

    /// The engine's own count of what it still means to export (MIR-12): objects with history
    /// after the last export not authored by the import, the objects marked to export again,
    /// deletions of exported objects (from tombstones, or rows gone without one: a batch
    /// delete, MIR-27), and deletions that failed.
    func pendingChanges(_ context: MirrorContext) -> (models: [ModelID], deletes: [String]) {
        let store = context.store
        let data = context.syncData
        var models = Set(data.reexport.filter { store.contains($0) })
        var deletes = Set(data.pendingDeletes)
        for entry in store.history(after: data.exportedThrough) where entry.author != Self.author {
            for change in entry.changes {
                switch change {
                case .inserted(let id, let entity), .updated(let id, let entity, _):
                    if isMirrored(entity), store.contains(id) { models.insert(id) }
                case .deleted(let id, _, _):
                    models.remove(id)
                    if let name = data.bindings.name(of: id) { deletes.insert(name) }
                }
            }
        }
        for id in data.bindings.sortedModels where !store.contains(id) {
            if let name = data.bindings.name(of: id) { deletes.insert(name) }
        }
        return (models.sorted(), deletes.sorted())
    }

    func refreshPending(_ context: MirrorContext) {
        let pending = pendingChanges(context)
        pendingModels = pending.models
        pendingDeletes = pending.deletes
    }

    /// After an event: what is pending now, written with the sync data when it changed, so that
    /// it still shows once the device is killed (the history it comes from is on disk).
    func persistPending(context: inout MirrorContext) {
        refreshPending(context)
        guard context.syncData.lastPendingModels != pendingModels
            || context.syncData.lastPendingDeletes != pendingDeletes else { return }
        context.syncData.lastPendingModels = pendingModels
        context.syncData.lastPendingDeletes = pendingDeletes
        effects.append(.write(DiskWrite(syncData: SyncDataBox(context.syncData))))
    }
}
