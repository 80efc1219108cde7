import CloudSim
import Kernel
import LocalStore
import SyncContract

extension HistoryEngine {
    /// HIS-22: a pull handles each scope in turn, private then shared.
    func startPull(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        operation.scopes = [.privateDatabase, .sharedDatabase]
        operation.scopeIndex = 0
        operation.pullFailed = false
        operation.tokenRetries = 0
        context.syncData.pullInProgress = true
        writeSyncData(context, effects: &effects)
        effects.append(.trace(kind: "pull.started", details: [
            TraceField("trigger", .string(operation.trigger)),
        ], rules: ["HIS-22"]))
        operation.passedDownloadStart = true
        pass(["download.start"], then: .pullScope, operation, context: &context, effects: &effects)
    }

    /// The next scope, or the end of the pull.
    func pullScope(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        guard operation.scopeIndex < operation.scopes.count, !operation.pullFailed else {
            context.syncData.pullInProgress = false
            writeSyncData(context, effects: &effects)
            if !operation.pullFailed {
                hasPulledOnce = true
                reportedError = nil
            }
            effects.append(.trace(kind: "pull.completed", details: [
                TraceField("failed", .bool(operation.pullFailed)),
            ], rules: ["HIS-22"]))
            pass(["download.done"], then: .nextPhase, operation, context: &context,
                effects: &effects)
            return
        }
        operation.changedZones = []
        operation.deletedZones = []
        operation.pendingDatabaseToken = nil
        operation.databaseToken = context.syncData.databaseTokens[operation.scope.rawValue]
        effects.append(.trace(kind: "pull.scope", details: [
            TraceField("scope", .string(operation.scope.rawValue)),
            TraceField("token", operation.databaseToken.map { .int($0.sequence) } ?? .null),
        ], rules: ["HIS-22"]))
        pass(["history.pull.scope.start"], then: .fetchDatabase, operation, context: &context,
            effects: &effects)
    }

    func fetchDatabase(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        send(.fetchDatabaseChanges(scope: operation.scope, token: operation.databaseToken),
            for: operation, effects: &effects)
    }

    func pullAnswered(_ response: CloudResponse, _ operation: HistoryOperation,
                      context: inout HistoryContext, effects: inout [EngineEffect]) {
        switch response {
        case .databaseChanges(let changed, let deleted, let token, let moreComing):
            for zone in changed where zone.name == Self.zoneName
                && !operation.changedZones.contains(zone) {
                operation.changedZones.append(zone)
            }
            operation.deletedZones += deleted.filter { $0.zone.name == Self.zoneName }
            operation.databaseToken = token
            if moreComing {
                fetchDatabase(operation, context: &context, effects: &effects)
                return
            }
            operation.pendingDatabaseToken = token
            handleDeletedZones(operation, context: &context, effects: &effects)
        case .zoneChanges(let records, let deletions, let token, let moreComing):
            operation.page = (records, deletions, token, moreComing)
            pass(["download.page.fetched"], then: .storePage, operation, context: &context,
                effects: &effects)
        case .failure(let error):
            pullFailed(error, operation, context: &context, effects: &effects)
        default:
            pullFailed(CloudError(.internalError, message: "an unexpected answer"), operation,
                       context: &context, effects: &effects)
        }
    }

    /// HIS-22 step 2, HIS-23, HIS-36: for each deleted zone, clear its token and purge.
    ///
    /// A zone deleted and created again since the database token (HIS-28's rebuild on
    /// another device) is in both lists (docs/CLOUDSIM.md): it stays a changed zone, so step 3
    /// fetches its new life from the nil token just set, after the purge.
    private func handleDeletedZones(_ operation: HistoryOperation, context: inout HistoryContext,
                                    effects: inout [EngineEffect]) {
        guard !operation.deletedZones.isEmpty else {
            operation.zoneIndex = 0
            nextZone(operation, context: &context, effects: &effects)
            return
        }
        for deletion in operation.deletedZones {
            context.syncData.zoneTokens[HistorySyncData.key(operation.scope, deletion.zone)] = nil
        }
        let deletions = operation.deletedZones
        for deletion in deletions where operation.changedZones.contains(deletion.zone) {
            effects.append(.trace(kind: "pull.zone-recreated", details: [
                TraceField("zone", .string(deletion.zone.description)),
                TraceField("note", .string("deleted, then created again: purged, then its new "
                    + "life is fetched from a nil token")),
            ], rules: ["HIS-22"]))
        }
        purge(reason: deletions.map { "\($0.zone) \($0.reason.rawValue)" }.joined(separator: ", "),
              shared: operation.scope == .sharedDatabase,
              userPurged: deletions.contains { $0.reason == .purged },
              context: &context, effects: &effects)
        operation.zoneIndex = 0
        pass(["history.purge"], then: .nextZone, operation, context: &context, effects: &effects)
    }

    /// HIS-23: `ModelHandler.deleteAll` for every handler, as the sync author: every local
    /// synchronized model of every zone goes, and none of the deletions is pushed.
    func purge(reason: String, shared: Bool, userPurged: Bool, context: inout HistoryContext,
               effects: inout [EngineEffect]) {
        var transaction = Transaction()
        var count = 0
        for entity in synchronizedEntities {
            for model in context.store.models(of: entity.name) {
                transaction.append(.delete(model.id))
                count += 1
            }
        }
        if !transaction.isEmpty {
            do {
                try context.store.save(transaction, author: Self.author)
            } catch {
                effects.append(.trace(kind: "purge.refused", details: [
                    TraceField("error", .string(String(describing: error))),
                ], rules: ["HIS-23"]))
            }
        }
        context.syncData.systemFields = [:]
        var rules = ["HIS-23", "HISW-4"]
        if shared { rules.insert("HIS-36", at: 0) }
        if userPurged { rules.append("HISW-5") }
        effects.append(.trace(kind: "purge", details: [
            TraceField("zones", .string(reason)),
            TraceField("deletedModels", .int(Int64(count))),
        ], rules: rules))
        effects.append(context.writeAll)
    }

    /// The next changed zone of the scope, page by page from its saved token.
    func nextZone(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        guard operation.zoneIndex < operation.changedZones.count else {
            // HIS-22 step 4: the database token, after the data.
            if let token = operation.pendingDatabaseToken {
                context.syncData.databaseTokens[operation.scope.rawValue] = token
                writeSyncData(context, effects: &effects)
                effects.append(.trace(kind: "db-token.saved", details: [
                    TraceField("scope", .string(operation.scope.rawValue)),
                    TraceField("token", .int(token.sequence)),
                ], rules: ["HIS-22"]))
            }
            pass(["history.db-token.saved"], then: .endScope, operation, context: &context,
                effects: &effects)
            return
        }
        let zone = operation.changedZones[operation.zoneIndex]
        let token = context.syncData.zoneTokens[HistorySyncData.key(operation.scope, zone)]
        send(.fetchZoneChanges(scope: operation.scope, zone: zone, token: token,
            resultsLimit: pageSize),
             for: operation, effects: &effects)
    }

    /// The page is stored: its zone token is saved (HIS-22, after the data).
    func afterPage(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        guard let page = operation.page else { return }
        let zone = operation.changedZones[operation.zoneIndex]
        context.syncData.zoneTokens[HistorySyncData.key(operation.scope, zone)] = page.token
        writeSyncData(context, effects: &effects)
        effects.append(.trace(kind: "zone-token.saved", details: [
            TraceField("zone", .string(zone.description)),
            TraceField("token", .int(page.token.sequence)),
        ], rules: ["HIS-22"]))
        operation.page = nil
        if !page.moreComing { operation.zoneIndex += 1 }
        pass(["download.page.saved"], then: .nextZone, operation, context: &context,
            effects: &effects)
    }

    /// HIS-25: `resolveMissingReferences` at the end of the scope, then the next scope.
    func endScope(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        if !missingParents.isEmpty {
            var transaction = Transaction()
            var linked = 0
            var left: [(model: ModelID, relationship: String, parent: String)] = []
            for missing in missingParents {
                guard context.store.contains(missing.model) else { continue }
                if let target = context.syncData.models[missing.parent],
                    context.store.contains(target) {
                    transaction.append(.update(missing.model,
                        values: [missing.relationship: .relationship(target)]))
                    linked += 1
                } else {
                    left.append(missing)
                }
            }
            missingParents = left
            if !transaction.isEmpty, (try? context.store.save(transaction,
                author: Self.author)) != nil {
                effects.append(context.writeAll)
            }
            effects.append(.trace(kind: "references.resolved", details: [
                TraceField("linked", .int(Int64(linked))),
                TraceField("stillMissing", .int(Int64(left.count))),
            ], rules: ["HIS-25"]))
        }
        operation.scopeIndex += 1
        operation.tokenRetries = 0
        pullScope(operation, context: &context, effects: &effects)
    }

    /// A pull request failed: `changeTokenExpired` resets that token and tries once more
    /// (HIS-24); every other error goes to the recovery policy and ends the pull.
    private func pullFailed(_ error: CloudError, _ operation: HistoryOperation,
                            context: inout HistoryContext, effects: inout [EngineEffect]) {
        let syncError = HistoryRecovery.syncError(error)
        let inZone = operation.pendingDatabaseToken != nil
            && operation.zoneIndex < operation.changedZones.count
        if syncError == .changeTokenExpired, operation.tokenRetries < 1 {
            operation.tokenRetries += 1
            if inZone {
                let zone = operation.changedZones[operation.zoneIndex]
                context.syncData.zoneTokens[HistorySyncData.key(operation.scope, zone)] = nil
            } else {
                context.syncData.resetTokens()
                operation.databaseToken = nil
            }
            writeSyncData(context, effects: &effects)
            effects.append(.trace(kind: "token.reset", details: [
                TraceField("scope", .string(operation.scope.rawValue)),
                TraceField("which", .string(inZone ? "zone" : "all")),
                TraceField("note",
                    .string("pulled again from scratch: no tombstones, deletions made elsewhere "
                    + "are missed")),
            ], rules: ["HIS-26", "HIS-24", "HISW-10"]))
            if inZone {
                nextZone(operation, context: &context, effects: &effects)
            } else {
                operation.changedZones = []
                operation.deletedZones = []
                operation.pendingDatabaseToken = nil
                fetchDatabase(operation, context: &context, effects: &effects)
            }
            return
        }
        effects.append(.trace(kind: "pull.failed", details: [
            TraceField("scope", .string(operation.scope.rawValue)),
            TraceField("error", .string(error.code.description)),
            TraceField("syncError", .string(syncError.rawValue)),
        ], rules: syncError == .changeTokenExpired ? ["HIS-24", "HIS-33"] : ["HIS-33"]))
        operation.pullFailed = true
        var probes: [String] = []
        if syncError != .changeTokenExpired {
            probes = recover(error, perItem: false, during: operation, context: &context,
                effects: &effects)
        } else {
            reportError(.unknown, code: error, effects: &effects)
        }
        pass(probes, then: .pullScope, operation, context: &context, effects: &effects)
    }
}
