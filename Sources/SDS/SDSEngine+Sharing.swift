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
            effects.addTrace(detailed: context.isTracing, kind: "shared.zone-added",
                details: [TraceField("zone", .string(zone.description))], rules: [])
        }
    }

    /// Removes the local copies of another user's share, without recording deletions, and
    /// forgets its tokens (LIFE-4 after a reset, ACCT-3 after a switch, or the share gone).
    func removeSharedCopies(of zone: ZoneID, rule: String?, context: inout SDSContext) {
        var transaction = Transaction()
        var removed: [String] = []
        var lost = LostWithShare()
        let own = appZone(context)
        for name in context.syncData.recordZones.keys.sorted()
            where context.syncData.recordZones[name] == zone {
            // (Only a share lost: a reset and a switch exempt their own removals.)
            if rule == nil { lost.note(name, appZone: own, context: context) }
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
        traceLost(lost, context: context)
        context.syncData.sharedZones.removeAll { $0 == zone }
        context.syncData.sharedZoneTokens[zone] = nil
        // The old records left there by moves out of it cannot be deleted any more.
        if !context.syncData.staleCopies.isEmpty {
            context.syncData.staleCopies = context.syncData.staleCopies.filter { $0.value != zone }
        }
        effects.addTrace(detailed: context.isTracing,
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
        effects.addTrace(detailed: context.isTracing,
            kind: "shared.cascade-deleted-own-model",
            details: [TraceField("records", .list(own.sorted().map { .string($0) }))],
            rules: ["DR-3"]
        )
    }

    /// What a share lost takes with its copies: changes not uploaded yet (DR-6), models this
    /// device moved into it whose old record stays (DR-3), and models whose move was uploaded
    /// (LIM-3: the owner may have deleted the record they were moved into, and iCloud them).
    private func traceLost(_ lost: LostWithShare, context: SDSContext) {
        if !lost.changed.isEmpty {
            effects.addTrace(detailed: context.isTracing,
                kind: "shared.copies-removed-with-changes",
                details: [TraceField("records", .list(lost.changed.map { .string($0) }))],
                rules: ["DR-6"]
            )
        }
        if !lost.unmoved.isEmpty {
            // DR-3: a move whose old record is not deleted yet: it stays in the app's zone.
            effects.addTrace(detailed: context.isTracing,
                kind: "shared.unmoved-own-model-removed",
                details: [TraceField("records", .list(lost.unmoved.map { .string($0) }))],
                rules: ["DR-3"]
            )
        }
        if !lost.moved.isEmpty {
            effects.addTrace(detailed: context.isTracing,
                kind: "shared.moved-model-removed",
                details: [TraceField("records", .list(lost.moved.map { .string($0) }))],
                rules: ["LIM-3"]
            )
        }
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
        let parentZone = id.flatMap { parentRecordZone(of: $0, context: context) }
        if let zone = context.syncData.recordZones[name] {
            // ID-4: a copy moved under a model of the app's zone goes there.
            if zone.owner != context.account, let parentZone, parentZone.owner == context.account {
                return parentZone
            }
            return zone
        }
        return parentZone ?? appZone(context)
    }

    /// The zone of the record a model's parent relationship names (the app's zone for one
    /// that is in no other); nil without a parent, or one with no record name.
    private func parentRecordZone(of id: ModelID, context: SDSContext) -> ZoneID? {
        guard let model = context.store.model(id), let entity = entities.named(model.entity),
              let parent = entity.parentRelationship, let target = model.toOne[parent.name],
              let parentName = context.syncData.recordName(of: target) else { return nil }
        return context.syncData.recordZones[parentName] ?? appZone(context)
    }
}
