import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// ADOPT-1, DEL-2, HDO-3: at launch (and after a reset or an account switch) the engine
    /// looks at the store: models whose records it knew but that are gone were not deleted
    /// through a context, so every record is downloaded again; models without a record are
    /// queued, never to overwrite iCloud.
    func findModelsWithoutRecords(context: inout SDSContext) {
        if context.syncData.storeGeneration != context.store.generation {
            context.syncData.storeGeneration = context.store.generation
            if context.syncData.hasDownloadedOnce || context.syncData.records.boundCount != 0 {
                context.syncData.hasDownloadedOnce = false
                context.syncData.needsFullDownload = true
                context.syncData.isRedownloading = true
                context.syncData.zoneToken = nil
                context.syncData.valueMatchingRule = "DEL-3"
                effects.addTrace(detailed: context.isTracing, kind: "store.vanished",
                    details: [], rules: ["HDO-3"])
            }
        }
        var vanished: [String] = []
        for id in context.syncData.records.boundModels where !context.store.contains(id) {
            if let name = context.syncData.recordName(of: id) { vanished.append(name) }
            context.syncData.unbind(id)
            context.syncData.pending[id] = nil
        }
        if !vanished.isEmpty {
            context.syncData.needsFullDownload = true
            context.syncData.isRedownloading = true
            context.syncData.zoneToken = nil
            // Every record: a vanished model may be a copy of another user's share.
            context.syncData.sharedZoneTokens = [:]
            // LIM-4's choice: this download from scratch brings no deletions either.
            context.syncData.expiredTokenRefetch = true
            context.syncData.refetchedRecords = []
            effects.addTrace(detailed: context.isTracing,
                kind: "store.models-vanished",
                details: [TraceField("records", .list(vanished.map { .string($0) })),
                          TraceField("deletions",
                              .string("none recorded; every record is downloaded again"))],
                rules: ["DEL-2"]
            )
        }
        var adopted: [TraceValue] = []
        for model in context.store.models where context.syncData.recordName(of: model.id) == nil {
            guard let entity = entities.named(model.entity), entity.isSynchronized else { continue }
            let name = assignRecordName(to: model.id, entity: entity, context: &context)
            var pending = context.syncData.pending[model.id] ?? PendingChange()
            pending.isInsert = true
            pending.isAdoption = true
            for key in entity.synchronizedKeys where pending.keys[key] == nil {
                context.syncData.editVersion += 1
                pending.keys[key] = context.syncData.editVersion
            }
            context.syncData.pending[model.id] = pending
            adopted.append(.string(name))
        }
        if !adopted.isEmpty {
            if context.syncData.zoneToken.isNil { context.syncData.needsFullDownload = true }
            effects.addTrace(detailed: context.isTracing, kind: "models.adopted",
                details: [TraceField("records", .list(adopted))], rules: ["ADOPT-1"])
        }
    }

    /// ACCT-3: another account. Local models stay and keep their record names (ACCT-4); the
    /// previous account's pending changes, tokens and zone are forgotten; every local model is
    /// uploaded to the new account without overwriting its data (ADOPT-2).
    func startOverWithAccount(_ account: String, context: inout SDSContext) {
        removeAllSharedCopies(rule: "ACCT-3", context: &context)
        let names = context.syncData.records
        var fresh = SDSSyncData()
        fresh.account = account
        fresh.historyPosition = context.syncData.historyPosition
        fresh.editVersion = context.syncData.editVersion
        fresh.storeGeneration = context.store.generation
        for id in names.boundModels {
            if let name = names.name(of: id) { fresh.bind(id, to: name) }
        }
        context.syncData = fresh
        effects.addTrace(detailed: context.isTracing,
            kind: "account.switched",
            details: [TraceField("account", .string(account)),
                      TraceField("forgotten", .string("pending changes, change tokens, zone"))],
            rules: ["ACCT-3", "ACCT-4"]
        )
        for id in fresh.records.boundModels {
            guard let model = context.store.model(id),
                  let entity = entities.named(model.entity) else { continue }
            var pending = PendingChange(isInsert: true, isAdoption: true)
            for key in entity.synchronizedKeys {
                context.syncData.editVersion += 1
                pending.keys[key] = context.syncData.editVersion
            }
            context.syncData.pending[id] = pending
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "models.adopted",
            details: [TraceField("records",
                .list(fresh.records.sortedBoundNames.map { .string($0) }))],
            rules: ["ADOPT-1"]
        )
        findModelsWithoutRecords(context: &context)
        context.syncData.needsFullDownload = true
    }

    /// LIFE-2: forget everything about iCloud's data once no synchronization runs; LIFE-5:
    /// changes made in `beforeForgetting` are not recorded; LIFE-6: a full disk keeps it all.
    func performReset(context: inout SDSContext) {
        guard let reset = pendingReset else { return }
        pendingReset = nil
        stopped = true
        // LIFE-4: copies of other users' shares go first; they are downloaded again (LIFE-6:
        // also when forgetting the rest then fails).
        if !context.syncData.sharedZones.isEmpty {
            removeAllSharedCopies(rule: "LIFE-4", context: &context)
        }
        if context.isDiskFull {
            effects.addTrace(detailed: context.isTracing,
                kind: "reset.failed",
                details: [TraceField("error", .string("the disk is full"))],
                rules: ["LIFE-6"]
            )
            if let waiter = reset.waiter { effects.append(.completed(waiter)) }
            return
        }
        if reset.deleteAll {
            var transaction = Transaction()
            for model in context.store.models { transaction.append(.delete(model.id)) }
            if !transaction.isEmpty {
                _ = try? context.store.save(transaction, author: Self.author)
            }
            effects.addTrace(detailed: context.isTracing,
                kind: "reset.before-forgetting",
                details: [TraceField("deleted", .string("every local model, not recorded"))],
                rules: ["LIFE-5"]
            )
        }
        var fresh = SDSSyncData()
        fresh.historyPosition = context.store.lastHistoryPosition
        fresh.editVersion = context.syncData.editVersion
        fresh.storeGeneration = context.store.generation
        fresh.needsFullDownload = true
        fresh.isRedownloading = true
        fresh.lookForModelsWithoutRecords = true
        fresh.valueMatchingRule = "LIFE-3"
        context.syncData = fresh
        accountChecked = false
        effects.addTrace(detailed: context.isTracing,
            kind: "reset.done",
            details: [TraceField("forgotten",
                .string("records of models, pending changes, tokens, hasDownloadedOnce"))],
            rules: ["LIFE-2"]
        )
        if let waiter = reset.waiter { effects.append(.completed(waiter)) }
    }

    /// SCHEMA-4: `forceDownload()` tries records set aside again at once.
    func retryRejectedNow(context: inout SDSContext) {
        guard !context.syncData.rejected.isEmpty else { return }
        let names = context.syncData.rejected.keys.sorted()
        context.syncData.rejected = [:]
        effects.append(.cancelTimer(.rejectedRetry))
        effects.addTrace(detailed: context.isTracing,
            kind: "rejected.retried",
            details: [TraceField("records", .list(names.map { .string($0) })),
                TraceField("by", .string("forceDownload()"))],
            rules: ["SCHEMA-4"]
        )
    }

    /// SCHEMA-4 / ERR-7: records whose hour is over are tried again.
    func releaseRejected(upTo now: SimTime, context: inout SDSContext) {
        let due = context.syncData.rejected.keys.sorted().filter {
            context.syncData.rejected[$0]!.until <= now
        }
        for name in due { context.syncData.rejected[name] = nil }
        if !due.isEmpty {
            effects.addTrace(detailed: context.isTracing,
                kind: "rejected.retried",
                details: [TraceField("records", .list(due.map { .string($0) })),
                    TraceField("after", .string("1 hour"))],
                rules: ["SCHEMA-4", "ERR-7"]
            )
        }
        if let next = context.syncData.rejected.values // tidy: ordered (a minimum)
            .map(\.until).min() {
            effects.append(.setTimer(.rejectedRetry, after: next - now))
        }
    }
}
