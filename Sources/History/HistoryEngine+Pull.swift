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

    /// HIS-22 step 3: the page's upserts and deletions, one save as the sync author (HIS-21).
    func storePage(_ operation: HistoryOperation, context: inout HistoryContext,
        effects: inout [EngineEffect]) {
        guard let page = operation.page else { return }
        let zone = operation.changedZones[operation.zoneIndex]
        let shared = operation.scope == .sharedDatabase
        var transaction = Transaction()
        var inserted: [(ModelID, String)] = []
        var updated = 0
        var unchanged = 0
        var overwritten: [String] = []
        let unpushed = unpushedKeys(context: context)
        var newModels: [String: ModelID] = [:]
        for record in page.records {
            guard let entity = schema.entity(named: record.recordType), entity.isSynchronized else {
                continue
            }
            var values: [String: PropertyValue] = [:]
            for attribute in HistoryRecords.uploadedAttributes(of: entity) {
                guard let field = record.fields[attribute.name],
                      let value = HistoryRecords.attributeValue(field,
                          type: attribute.type) else { continue }
                values[attribute.name] = .attribute(value)
            }
            if let id = context.syncData.models[record.recordName],
                let model = context.store.model(id) {
                if let known = context.syncData.systemFields[id]?.changeTag,
                    known == record.changeTag {
                    // The version this device wrote or fetched last: nothing to write.
                    unchanged += 1
                    continue
                }
                var changes: [String: PropertyValue] = [:]
                for key in values.keys.sorted() {
                    guard case .attribute(let value)? = values[key],
                        model.values[key] != value else { continue }
                    changes[key] = values[key]
                    if unpushed[id]?.contains(key) ?? false {
                        overwritten.append("\(record.recordName).\(key)")
                    }
                }
                // HIS-3: a cleared value is a key the record leaves out; an optional value
                // the record does not carry is cleared here too, unless its type never
                // reaches iCloud (HISW-9), so the record cannot carry it.
                for attribute in HistoryRecords.uploadedAttributes(of: entity)
                    where attribute.isOptional && record.fields[attribute.name] == nil {
                    guard let held = model.values[attribute.name],
                        HistoryRecords.cloudValue(held) != nil else { continue }
                    changes[attribute.name] = .attribute(nil)
                    if unpushed[id]?.contains(attribute.name) ?? false {
                        overwritten.append("\(record.recordName).\(attribute.name)")
                    }
                }
                link(record, id: id, entity: entity, model: model, into: &changes,
                    newModels: newModels, context: context)
                if !changes.isEmpty {
                    transaction.append(.update(id, values: changes))
                    updated += 1
                }
                noteSystemFields(record, id: id, shared: shared, zone: zone, context: &context)
            } else {
                for attribute in entity.attributes where values[attribute.name] == nil
                    && !attribute.isOptional {
                    if let fallback = attribute.defaultValue {
                        values[attribute.name] = .attribute(fallback)
                    }
                }
                let complete = entity.attributes.allSatisfy {
                    $0.isOptional || values[$0.name] != nil
                }
                guard complete else {
                    effects.append(.trace(kind: "pull.record-skipped", details: [
                        TraceField("recordName", .string(record.recordName)),
                        TraceField("reason", .string("a required value is missing")),
                    ], rules: ["HIS-21"]))
                    continue
                }
                let id = context.store.makeModelID()
                let placeholder = Model(id: id, entity: entity.name)
                link(record, id: id, entity: entity, model: placeholder, into: &values,
                    newModels: newModels, context: context)
                noteDuplicate(record, entity: entity, values: values, context: context,
                    effects: &effects)
                transaction.append(.insert(id, entity: entity.name, values: values))
                inserted.append((id, record.recordName))
                newModels[record.recordName] = id
                noteSystemFields(record, id: id, shared: shared, zone: zone, context: &context)
            }
        }
        var deleted = 0
        for deletion in page.deletions {
            guard let id = context.syncData.models[deletion.recordName],
                context.store.contains(id) else { continue }
            transaction.append(.delete(id))
            context.syncData.systemFields[id] = nil
            deleted += 1
        }
        if !transaction.isEmpty {
            do {
                try context.store.save(transaction, author: Self.author)
                for (id, name) in inserted { context.syncData.name(id, name) }
            } catch {
                effects.append(.trace(kind: "pull.store-refused", details: [
                    TraceField("error", .string(String(describing: error))),
                ], rules: ["HIS-21"]))
            }
        }
        effects.append(context.writeAll)
        var rules = ["HIS-21", "HIS-22"]
        if shared && !page.records.isEmpty { rules.append("HIS-35") }
        effects.append(.trace(kind: "pull.page.stored", details: [
            TraceField("zone", .string(zone.description)),
            TraceField("inserted", .int(Int64(inserted.count))),
            TraceField("updated", .int(Int64(updated))),
            TraceField("unchanged", .int(Int64(unchanged))),
            TraceField("deleted", .int(Int64(deleted))),
        ], rules: rules))
        if !shared && !inserted.isEmpty {
            noteMergedAccounts(inserted: inserted.count, context: context, effects: &effects)
        }
        if !overwritten.isEmpty {
            effects.append(.trace(kind: "pull.overwrote-unpushed", details: [
                TraceField("keys", .list(overwritten.map { .string($0) })),
                TraceField("note",
                    .string("an unpushed local edit is overwritten; the next push sends the "
                    + "downloaded value")),
            ], rules: ["HISW-3", "HIS-21"]))
        }
        pass(["download.page.stored"], then: .afterPage, operation, context: &context,
            effects: &effects)
    }

    /// The parent as a relationship, or remembered until its record arrives (HIS-25).
    private func link(_ record: CloudRecord, id: ModelID, entity: EntityDescription, model: Model,
                      into values: inout [String: PropertyValue], newModels: [String: ModelID],
                      context: HistoryContext) {
        guard let parent = HistoryRecords.parentRelationship(of: entity) else { return }
        guard let parentName = record.parent else {
            if model.toOne[parent.name] != nil { values[parent.name] = .relationship(nil) }
            return
        }
        if let target = newModels[parentName] ?? context.syncData.models[parentName],
           context.store.contains(target) || newModels[parentName] != nil {
            if model.toOne[parent.name] != target { values[parent.name] = .relationship(target) }
        } else {
            missingParents.append((id, parent.name, parentName))
        }
    }

    /// HIS-4, HIS-35: the record's system fields, and its owner for a sharer's zone.
    private func noteSystemFields(_ record: CloudRecord, id: ModelID, shared: Bool, zone: ZoneID,
                                  context: inout HistoryContext) {
        var fields = record
        fields.fields = [:]
        context.syncData.systemFields[id] = fields
        if shared { context.syncData.owners[id] = zone.owner } else {
            context.syncData.owners[id] = nil
        }
    }

    /// HISW-11: an inserted record whose identity values a local model already has.
    private func noteDuplicate(_ record: CloudRecord, entity: EntityDescription,
        values: [String: PropertyValue],
                               context: HistoryContext, effects: inout [EngineEffect]) {
        guard !entity.identity.isEmpty else { return }
        let identity = entity.identity.map { key -> AttributeValue? in
            if case .attribute(let value)? = values[key] { return value }
            return nil
        }
        guard !identity.contains(where: { $0 == nil }) else { return }
        guard let twin = context.store.models(of: entity.name).first(where: { model in
            entity.identity.map { model.values[$0] } == identity
        }) else { return }
        effects.append(.trace(kind: "pull.duplicate", details: [
            TraceField("recordName", .string(record.recordName)),
            TraceField("twin",
                .string(context.syncData.recordNames[twin.id] ?? twin.id.description)),
        ], rules: ["HISW-11", "HIS-39"]))
    }

    /// HISW-12: the account's records join local models whose system fields name another
    /// account (nothing observes the account, HIS-34): the two accounts' data is merged in
    /// the same store.
    private func noteMergedAccounts(inserted: Int, context: HistoryContext,
                                    effects: inout [EngineEffect]) {
        guard let account = context.account else { return }
        var others: [String] = []
        var models = 0
        for id in context.syncData.systemFields.keys.sorted() {
            guard let record = context.syncData.systemFields[id],
                context.syncData.owners[id] == nil, record.zone.owner != account,
                context.store.contains(id) else { continue }
            if !others.contains(record.zone.owner) { others.append(record.zone.owner) }
            models += 1
        }
        guard models > 0 else { return }
        effects.append(.trace(kind: "pull.accounts-merged", details: [
            TraceField("account", .string(account)),
            TraceField("otherAccounts", .list(others.sorted().map { .string($0) })),
            TraceField("inserted", .int(Int64(inserted))),
            TraceField("otherAccountModels", .int(Int64(models))),
            TraceField("note", .string("the new account's records join the old account's "
                + "models in the same store")),
        ], rules: ["HISW-12", "HIS-34"]))
    }

    /// The keys of each model that unconsumed history after the persisted token changed.
    private func unpushedKeys(context: HistoryContext) -> [ModelID: Set<String>] {
        var keys: [ModelID: Set<String>] = [:]
        for transaction in context.store.persistentHistory(after: context.syncData.persistedToken)
        where transaction.author != Self.author {
            for change in transaction.changes {
                switch change {
                case .inserted(let id, let entity):
                    let names = schema.entity(named: entity)?.attributes.map(\.name) ?? []
                    keys[id, default: []].formUnion(names)
                case .updated(let id, _, let changed):
                    keys[id, default: []].formUnion(changed)
                case .deleted:
                    break
                }
            }
        }
        return keys
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
