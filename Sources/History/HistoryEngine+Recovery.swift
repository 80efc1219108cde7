import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension HistoryEngine {
    /// `handleError`: the error mapped to `SyncError` (HIS-33), then the recovery policy
    /// table's row for it (`HistoryRecovery.table`). Returns the profile probes to pass.
    func recover(_ error: CloudError, perItem: Bool, during operation: HistoryOperation,
                 context: inout HistoryContext) -> [String] {
        let syncError = HistoryRecovery.syncError(error, perItem: perItem)
        let row = HistoryRecovery.row(for: syncError)
        effects.append(.trace(kind: "recovery", details: [
            TraceField("error", .string(error.code.description)),
            TraceField("syncError", .string(syncError.rawValue)),
            TraceField("action", .string(row.action.rawValue)),
        ], rules: [row.rule, "HIS-33"]))
        switch row.action {
        case .resetTokenAndRetry:
            resetTokensAndPull(context: &context)
            return []
        case .purgeAndRebuild, .rebuildZone:
            queueRebuild(row, syncError, error, during: operation, context: context)
            return []
        case .backoff:
            return startBackoff(row, syncError, error)
        case .waitForNetwork:
            waitForNetwork()
            return []
        case .reportError:
            reportRecoveryError(syncError, error, perItem: perItem)
            return []
        }
    }

    /// HIS-26: every token reset, then a pull from scratch (HISW-10: deletions are missed).
    private func resetTokensAndPull(context: inout HistoryContext) {
        context.syncData.resetTokens()
        writeSyncData(context)
        effects.append(.trace(kind: "token.reset", details: [
            TraceField("which", .string("all")),
            TraceField("note",
                .string("pulled again from scratch: no tombstones, deletions made elsewhere "
                + "are missed")),
        ], rules: ["HIS-26", "HISW-10"]))
        requestPull(trigger: "token-reset", probe: nil, context: &context)
    }

    /// HIS-27 / HIS-28: a rebuild queued, unless the failure is the rebuild's own (reported).
    private func queueRebuild(_ row: HistoryRecoveryRow, _ syncError: HistorySyncError,
        _ error: CloudError, during operation: HistoryOperation, context: HistoryContext) {
        guard operation.rebuild == nil else {
            reportError(syncError, code: error)
            return
        }
        let purge = row.action == .purgeAndRebuild
        var rules = [row.rule]
        if purge { rules.append("HISW-5") }
        if context.account != lastAccount(context) { rules.append("HISW-12") }
        effects.append(.trace(kind: purge ? "rebuild.purge-and-rebuild" : "rebuild.zone",
            details: [
            TraceField("note", .string("every local model is uploaded again as an insert")),
        ], rules: rules))
        let rebuild = makeOperation(purge ? "purge-and-rebuild" : "rebuild-zone",
            [.rebuild(purge: purge)])
        runner.enqueue(rebuild)
    }

    /// HIS-29, HIS-30: pushes pause until the backoff timer; returns the probe it passes.
    private func startBackoff(_ row: HistoryRecoveryRow, _ syncError: HistorySyncError,
        _ error: CloudError) -> [String] {
        let pause = HistoryRecovery.pause(row, retryAfter: error.retryAfter)
        pausedFor = syncError
        var rules = [row.rule]
        if syncError == .serviceUnavailable, (error.retryAfter ?? pause) < pause {
            rules.append("HISW-6")
        }
        effects.append(.trace(kind: "backoff.start", details: [
            TraceField("reason", .string(syncError.rawValue)),
            TraceField("pause", .int(pause.microseconds)),
            TraceField("retryAfter", error.retryAfter.map { .int($0.microseconds) } ?? .null),
        ], rules: rules))
        effects.append(.setTimer(.backoff, after: pause))
        return ["history.backoff.start"]
    }

    /// HIS-31: the engine marks itself offline until the network comes back.
    private func waitForNetwork() {
        isOffline = true
        effects.append(.trace(kind: "network.wait", details: [
            TraceField("note", .string("offline until the network comes back (HIS-14)")),
        ], rules: ["HIS-31"]))
    }

    /// HIS-32: only reported; a partial throttle is not retried either (HISW-6).
    private func reportRecoveryError(_ syncError: HistorySyncError, _ error: CloudError,
        perItem: Bool) {
        reportError(syncError, code: error)
        if perItem, error.code == .requestRateLimited {
            effects.append(.trace(kind: "throttle.not-retried", details: [
                TraceField("note",
                    .string("a partial throttle is only reported; nothing retries until the "
                    + "next trigger")),
            ], rules: ["HISW-6", "HIS-32"]))
        }
    }

    /// HIS-32: an error event; the state shows it until a push or pull succeeds.
    func reportError(_ syncError: HistorySyncError, code: CloudError) {
        reportedError = syncError
        effects.append(.trace(kind: "error.reported", details: [
            TraceField("syncError", .string(syncError.rawValue)),
            TraceField("error", .string(code.code.description)),
            TraceField("note", .string("nothing recovers automatically")),
        ], rules: syncError == .authenticationFailed ? ["HIS-32", "HIS-34"] : ["HIS-32"]))
    }

    /// The account the local data came from: the zone owner of a stored system field.
    func lastAccount(_ context: HistoryContext) -> String? {
        for id in context.syncData.systemFields.keys.sorted() {
            if let record = context.syncData.systemFields[id], context.syncData.owners[id] == nil {
                return record.zone.owner
            }
        }
        return context.account
    }

    /// HIS-27 / HIS-28: the recovery of a purged or deleted zone: (HIS-27: clear the sync
    /// data, reset the tokens;) create the zone, then upload every local model as an insert.
    func startRebuild(_ operation: HistoryOperation, purge: Bool, context: inout HistoryContext) {
        let rebuild = HistoryRebuildState(purge: purge)
        operation.stage = .rebuild(rebuild)
        let upload = rebuild.upload
        if purge {
            context.syncData.systemFields = [:]
            context.syncData.resetTokens()
            writeSyncData(context)
            effects.append(.trace(kind: "sync-data.cleared", details: [], rules: ["HIS-27"]))
        }
        var changes = HistoryChangeSet()
        for entity in synchronizedEntities {
            for model in context.store.models(of: entity.name)
                where context.syncData.owners[model.id] == nil {
                changes.insertions.append(model.id)
            }
        }
        var requests = buildRequests(changes, context: &context)
        let zoneRequest = HistoryPushRequest(kind: .inserts, scope: .privateDatabase,
                                             zone: zone(owner: nil,
                                                 context), saves: [], deletes: [], models: [])
        requests.removeAll { $0.scope != .privateDatabase }
        upload.requests = requests
        effects.append(context.writeAll)
        effects.append(.trace(kind: "rebuild.start", details: [
            TraceField("zone", .string(zoneRequest.zone.description)),
            TraceField("models", .int(Int64(changes.insertions.count))),
        ], rules: purge ? ["HIS-27"] : ["HIS-28"]))
        // Setup again (the zone, then the subscriptions for HIS-28), as requests of the
        // upload phase: one request each, like the seed's `setupZone`.
        let probes = uploadProbes(operation) + ["upload.start"]
        send(.modifyZones(scope: .privateDatabase, save: [zoneRequest.zone], delete: []),
            for: operation)
        rebuild.zonePending = true
        upload.sentRequest = true
        pass(probes + ["upload.sent"], then: .wait, operation, context: &context)
    }
}
