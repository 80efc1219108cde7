import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension HistoryEngine {
    /// HIS-22: a pull handles each scope in turn, private then shared.
    func startPull(_ operation: HistoryOperation, context: inout HistoryContext) {
        operation.stage = .pull(HistoryPullState())
        context.syncData.pullInProgress = true
        writeSyncData(context)
        effects.append(.trace(kind: "pull.started", details: [
            TraceField("trigger", .string(operation.trigger)),
        ], rules: ["HIS-22"]))
        operation.passedDownloadStart = true
        pass(["download.start"], then: .pullScope, operation, context: &context)
    }

    /// The next scope, or the end of the pull.
    func pullScope(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        guard pull.scopeIndex < HistoryPullState.scopes.count, !pull.failed else {
            context.syncData.pullInProgress = false
            writeSyncData(context)
            if !pull.failed {
                hasPulledOnce = true
                reportedError = nil
            }
            effects.append(.trace(kind: "pull.completed", details: [
                TraceField("failed", .bool(pull.failed)),
            ], rules: ["HIS-22"]))
            pass(["download.done"], then: .nextPhase, operation, context: &context)
            return
        }
        pull.changedZones = []
        pull.deletedZones = []
        pull.pendingDatabaseToken = nil
        pull.databaseToken = context.syncData.databaseTokens[pull.scope.rawValue]
        effects.append(.trace(kind: "pull.scope", details: [
            TraceField("scope", .string(pull.scope.rawValue)),
            TraceField("token", pull.databaseToken.map { .int($0.sequence) } ?? .null),
        ], rules: ["HIS-22"]))
        pass(["history.pull.scope.start"], then: .fetchDatabase, operation, context: &context)
    }

    func fetchDatabase(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        send(.fetchDatabaseChanges(scope: pull.scope, token: pull.databaseToken),
            for: operation)
    }

    func pullAnswered(_ response: CloudResponse, _ operation: HistoryOperation,
                      context: inout HistoryContext) {
        let pull = operation.pull
        switch response {
        case .databaseChanges(let changed, let deleted, let token, let moreComing):
            for zone in changed where zone.name == Self.zoneName
                && !pull.changedZones.contains(zone) {
                pull.changedZones.append(zone)
            }
            pull.deletedZones += deleted.filter { $0.zone.name == Self.zoneName }
            pull.databaseToken = token
            if moreComing {
                fetchDatabase(operation, context: &context)
                return
            }
            pull.pendingDatabaseToken = token
            handleDeletedZones(operation, context: &context)
        case .zoneChanges(let records, let deletions, let token, let moreComing):
            pull.page = (records, deletions, token, moreComing)
            pass(["download.page.fetched"], then: .storePage, operation, context: &context)
        case .failure(let error):
            pullFailed(error, operation, context: &context)
        default:
            pullFailed(CloudError(.internalError, message: "an unexpected answer"), operation,
                       context: &context)
        }
    }

    /// HIS-22 step 2, HIS-23, HIS-36: for each deleted zone, clear its token and purge.
    ///
    /// A zone deleted and created again since the database token (HIS-28's rebuild on
    /// another device) is in both lists (docs/CLOUDSIM.md): it stays a changed zone, so step 3
    /// fetches its new life from the nil token just set, after the purge.
    private func handleDeletedZones(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        guard !pull.deletedZones.isEmpty else {
            pull.zoneIndex = 0
            nextZone(operation, context: &context)
            return
        }
        for deletion in pull.deletedZones {
            context.syncData.zoneTokens[HistorySyncData.key(pull.scope, deletion.zone)] = nil
        }
        let deletions = pull.deletedZones
        for deletion in deletions where pull.changedZones.contains(deletion.zone) {
            effects.append(.trace(kind: "pull.zone-recreated", details: [
                TraceField("zone", .string(deletion.zone.description)),
                TraceField("note", .string("deleted, then created again: purged, then its new "
                    + "life is fetched from a nil token")),
            ], rules: ["HIS-22"]))
        }
        purge(reason: deletions.map { "\($0.zone) \($0.reason.rawValue)" }.joined(separator: ", "),
              shared: pull.scope == .sharedDatabase,
              userPurged: deletions.contains { $0.reason == .purged },
              context: &context)
        pull.zoneIndex = 0
        pass(["history.purge"], then: .nextZone, operation, context: &context)
    }

    /// HIS-23: `ModelHandler.deleteAll` for every handler, as the sync author: every local
    /// synchronized model of every zone goes, and none of the deletions is pushed.
    func purge(reason: String, shared: Bool, userPurged: Bool, context: inout HistoryContext) {
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
    func nextZone(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        guard pull.zoneIndex < pull.changedZones.count else {
            // HIS-22 step 4: the database token, after the data.
            if let token = pull.pendingDatabaseToken {
                context.syncData.databaseTokens[pull.scope.rawValue] = token
                writeSyncData(context)
                effects.append(.trace(kind: "db-token.saved", details: [
                    TraceField("scope", .string(pull.scope.rawValue)),
                    TraceField("token", .int(token.sequence)),
                ], rules: ["HIS-22"]))
            }
            pass(["history.db-token.saved"], then: .endScope, operation, context: &context)
            return
        }
        let zone = pull.changedZones[pull.zoneIndex]
        let token = context.syncData.zoneTokens[HistorySyncData.key(pull.scope, zone)]
        send(.fetchZoneChanges(scope: pull.scope, zone: zone, token: token,
            resultsLimit: pageSize),
             for: operation)
    }

    /// The page is stored: its zone token is saved (HIS-22, after the data).
    func afterPage(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        guard let page = pull.page else {
            preconditionFailure("history: a page saved that was never fetched")
        }
        let zone = pull.changedZones[pull.zoneIndex]
        context.syncData.zoneTokens[HistorySyncData.key(pull.scope, zone)] = page.token
        writeSyncData(context)
        effects.append(.trace(kind: "zone-token.saved", details: [
            TraceField("zone", .string(zone.description)),
            TraceField("token", .int(page.token.sequence)),
        ], rules: ["HIS-22"]))
        pull.page = nil
        if !page.moreComing { pull.zoneIndex += 1 }
        pass(["download.page.saved"], then: .nextZone, operation, context: &context)
    }

    /// HIS-25: `resolveMissingReferences` at the end of the scope, then the next scope.
    func endScope(_ operation: HistoryOperation, context: inout HistoryContext) {
        let pull = operation.pull
        if !missingParents.isEmpty {
            var transaction = Transaction()
            var linked = 0
            var left: [(model: ModelID, relationship: String, parent: String)] = []
            for missing in missingParents {
                guard context.store.contains(missing.model) else { continue }
                if let target = context.syncData.bindings.model(named: missing.parent),
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
        pull.scopeIndex += 1
        pull.tokenRetries = 0
        pullScope(operation, context: &context)
    }

    /// A pull request failed: `changeTokenExpired` resets that token and tries once more
    /// (HIS-24); every other error goes to the recovery policy and ends the pull.
    private func pullFailed(_ error: CloudError, _ operation: HistoryOperation,
                            context: inout HistoryContext) {
        let pull = operation.pull
        let syncError = HistoryRecovery.syncError(error)
        let inZone = pull.pendingDatabaseToken != nil
            && pull.zoneIndex < pull.changedZones.count
        if syncError == .changeTokenExpired, pull.tokenRetries < 1 {
            pull.tokenRetries += 1
            if inZone {
                let zone = pull.changedZones[pull.zoneIndex]
                context.syncData.zoneTokens[HistorySyncData.key(pull.scope, zone)] = nil
            } else {
                context.syncData.resetTokens()
                pull.databaseToken = nil
            }
            writeSyncData(context)
            effects.append(.trace(kind: "token.reset", details: [
                TraceField("scope", .string(pull.scope.rawValue)),
                TraceField("which", .string(inZone ? "zone" : "all")),
                TraceField("note",
                    .string("pulled again from scratch: no tombstones, deletions made elsewhere "
                    + "are missed")),
            ], rules: ["HIS-26", "HIS-24", "HISW-10"]))
            if inZone {
                nextZone(operation, context: &context)
            } else {
                pull.changedZones = []
                pull.deletedZones = []
                pull.pendingDatabaseToken = nil
                fetchDatabase(operation, context: &context)
            }
            return
        }
        effects.append(.trace(kind: "pull.failed", details: [
            TraceField("scope", .string(pull.scope.rawValue)),
            TraceField("error", .string(error.code.description)),
            TraceField("syncError", .string(syncError.rawValue)),
        ], rules: syncError == .changeTokenExpired ? ["HIS-24", "HIS-33"] : ["HIS-33"]))
        pull.failed = true
        var probes: [String] = []
        if syncError != .changeTokenExpired {
            probes = recover(error, perItem: false, during: operation, context: &context)
        } else {
            reportError(.unknown, code: error)
        }
        pass(probes, then: .pullScope, operation, context: &context)
    }
}
