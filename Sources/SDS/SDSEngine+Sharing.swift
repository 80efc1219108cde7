import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// The shared database's feed: zones of other users this account can read now, and zones
    /// it lost (share stopped, removed, left): their local copies are removed.
    func handleSharedDatabaseChanges(
        changed: [ZoneID],
        deleted: [ZoneDeletion],
        context: inout SDSContext
    ) {
        for deletion in deleted where context.syncData.sharedZones.contains(deletion.zone) {
            removeSharedCopies(of: deletion.zone, rule: nil, context: &context)
        }
        for zone in changed where zone.owner != context.account
            && !context.syncData.sharedZones.contains(zone) {
            context.syncData.sharedZones.append(zone)
            context.syncData.sharedZones.sort()
            effects.appendTrace(detailed: context.isTracing, kind: "shared.zone-added",
                details: [TraceField("zone", .string(zone.description))], rules: [])
        }
    }

    /// Removes the local copies of another user's share, without recording deletions, and
    /// forgets its tokens (LIFE-4 after a reset, ACCT-3 after a switch, or the share gone).
    func removeSharedCopies(of zone: ZoneID, rule: String?, context: inout SDSContext) {
        var transaction = Transaction()
        var removed: [String] = []
        for name in context.syncData.recordZones.keys.sorted()
            where context.syncData.recordZones[name] == zone {
            context.syncData.recordZones[name] = nil
            context.syncData.setChangeTag(nil, for: name)
            context.syncData.pendingDeletions[name] = nil
            guard let id = context.syncData.model(forRecord: name) else { continue }
            context.syncData.unbind(id)
            context.syncData.pending[id] = nil
            if context.store.contains(id) {
                transaction.append(.delete(id))
                removed.append(name)
            }
        }
        if !transaction.isEmpty,
           let entry = try? context.store.save(transaction, author: Self.author) {
            traceOwnModelsRemoved(by: entry, copies: removed, context: context)
        }
        context.syncData.sharedZones.removeAll { $0 == zone }
        context.syncData.sharedZoneTokens[zone] = nil
        effects.appendTrace(detailed: context.isTracing,
            kind: "shared.copies-removed",
            details: [TraceField("zone", .string(zone.description)),
                      TraceField("records", .list(removed.map { .string($0) }))],
            rules: rule.map { [$0] } ?? []
        )
    }

    /// DR-3: the copies' delete rules also removed models of this device's own zone (moved or
    /// created inside a copy, the move not uploaded): here only, no deletion recorded.
    private func traceOwnModelsRemoved(by entry: HistoryEntry?, copies: [String],
                                       context: SDSContext) {
        var own: [String] = []
        for change in entry?.changes ?? [] {
            guard case .deleted(let id, _, _) = change,
                  let name = context.syncData.recordName(of: id), !copies.contains(name)
            else { continue }
            own.append(name)
        }
        guard !own.isEmpty else { return }
        effects.appendTrace(detailed: context.isTracing,
            kind: "shared.cascade-deleted-own-model",
            details: [TraceField("records", .list(own.sorted().map { .string($0) }))],
            rules: ["DR-3"]
        )
    }

    /// Every local copy of other users' shares (LIFE-4, ACCT-3); the shared feed starts over.
    func removeAllSharedCopies(rule: String, context: inout SDSContext) {
        for zone in context.syncData.sharedZones {
            removeSharedCopies(of: zone, rule: rule, context: &context)
        }
        context.syncData.sharedDatabaseToken = nil
        context.syncData.sharedSubscribed = false
        sharedDatabaseMayHaveChanged = true
    }

    /// The zone a model's record lives in: a copy of another user's share stays in its zone,
    /// and a new model whose parent is such a copy goes into that zone too.
    func zone(ofRecord name: String, model id: ModelID?, context: SDSContext) -> ZoneID {
        // No record in another user's share: every record is in the app's zone (without
        // looking up the model, its entity and its parent's name for each upload).
        guard !context.syncData.recordZones.isEmpty else { return appZone(context) }
        if let zone = context.syncData.recordZones[name] { return zone }
        if let id, let model = context.store.model(id), let entity = entities.named(model.entity),
           let parent = entity.parentRelationship, let target = model.toOne[parent.name],
           let parentName = context.syncData.recordName(of: target),
           let zone = context.syncData.recordZones[parentName] {
            return zone
        }
        return appZone(context)
    }
}
