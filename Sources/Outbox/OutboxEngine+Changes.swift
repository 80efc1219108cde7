import CKSyncEngineSim
import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension OutboxEngine {
    /// OBX-15, OBX-16, OBX-18, OBX-22: `applyFetchedChanges`: only tracked zones are
    /// applied, as one save of the store (author `outbox`, never recorded); a refused save
    /// is rolled back while the token still advances.
    func applyFetchedChanges(
        _ changes: CKSyncEngine.FetchedRecordZoneChanges, scope: DatabaseScope
    ) {
        let before = working
        var page = FetchedPage()
        assignNewModelIDs(changes, scope: scope, page: &page)
        for record in changes.modifications {
            planModification(record, scope: scope, page: &page)
        }
        for (id, values) in page.links { page.transaction.append(.update(id, values: values)) }
        planDeletions(changes, scope: scope, page: &page)
        do {
            let entry = try store.save(page.transaction, author: Self.author)
            if !changes.deletions.isEmpty, let entry {
                // OBX-DR-1: models the save deleted through a delete rule, not because their
                // own deletion was fetched.
                let fetched = Set(page.deleted)
                page.cascaded = entry.deletedModels.compactMap { data.bindings.name(of: $0) }
                    .filter { !fetched.contains($0) }.sorted()
            }
        } catch {
            working = before
            trace("fetch.store-refused", [
                TraceField("error", .string(String(describing: error))),
                TraceField("note", .string("rolled back; the change token still advances")),
            ], ["OBX-22", "OBXW-4"])
            writeSyncData()
            return
        }
        commitFetchedPage(page)
        traceFetchedPage(page, scope: scope)
    }

    /// What one fetched page does to the store, gathered before its single save.
    struct FetchedPage {
        var transaction = Transaction()
        var dropped: [String] = []
        var applied = 0
        var kept: [String] = []
        var overwrites: [(String, [String])] = []
        var inserted: [(ModelID, String)] = []
        var archives: [(String, CloudRecord)] = []
        var newIDs: [String: ModelID] = [:]
        var notRestored: [String] = []
        var deletionPending: [String] = []
        var links: [(ModelID, [String: PropertyValue])] = []
        var deleted: [String] = []
        var resurrect: [String] = []
        var cascaded: [String] = []
        var unresolved: [String] = []
    }

    /// OBX-DR-5: a reference whose target this device holds neither in its store nor in the
    /// page is left empty, and nothing sets it when the target arrives later.
    private func hasUnresolvedReference(
        _ record: CloudRecord, _ entity: EntityDescription, _ values: [String: PropertyValue]
    ) -> Bool {
        entity.synchronizedToOneRelationships.contains { relationship in
            var target = false
            if case .reference? = record.fields[relationship.name] { target = true }
            if relationship.isParent, record.parent != nil { target = true }
            guard target, case .relationship(nil)? = values[relationship.name] else {
                return false
            }
            return true
        }
    }

    /// New models get their identifiers first, so references within the page resolve.
    private func assignNewModelIDs(
        _ changes: CKSyncEngine.FetchedRecordZoneChanges, scope: DatabaseScope,
        page: inout FetchedPage
    ) {
        for record in changes.modifications
            where data.bindings.model(named: record.recordName).flatMap(store.model) == nil {
            guard data.tracked(zone: record.zone)?.role == role(of: scope),
                  entity(record.recordType) != nil else { continue }
            if data.rows[record.recordName]?.mutation == .delete {
                // OBX-15 (a choice): the app deleted the model and its delete row waits to be
                // sent; the fetched record does not bring it back, and the delete goes up.
                page.deletionPending.append(record.recordName)
                continue
            }
            if unchangedSinceVanished(record) {
                page.notRestored.append(record.recordName)
                continue
            }
            page.newIDs[record.recordName] = store.makeModelID()
        }
        if !page.notRestored.isEmpty {
            trace("fetch.not-restored", [
                TraceField("records", .list(page.notRestored.map { .string($0) })),
                TraceField("note",
                    .string("unchanged since the batch delete: the models stay gone")),
            ], ["OBX-6", "OBXW-9"])
        }
        if !page.deletionPending.isEmpty {
            trace("fetch.deletion-pending", [
                TraceField("records", .list(page.deletionPending.map { .string($0) })),
                TraceField("note",
                    .string("deleted here, the delete row not yet sent: the models stay gone")),
            ], ["OBX-15", "OBX-4"])
        }
    }

    /// OBX-15, OBX-18, OBX-28: one fetched record becomes an insert, an update, or nothing.
    private func planModification(
        _ record: CloudRecord, scope: DatabaseScope, page: inout FetchedPage
    ) {
        if record.recordType == CloudRecord.shareRecordType {
            trace("share.record-seen", [
                TraceField("zone", .string(record.zone.description)),
                TraceField("share", .string(record.recordName)),
                TraceField("note", .string("the collection is shared as its whole zone")),
            ], ["OBX-28"])
            return
        }
        guard let zone = data.tracked(zone: record.zone), role(of: scope) == zone.role else {
            page.dropped.append(record.recordName)
            return
        }
        guard let entity = entity(record.recordType) else { return }
        let name = record.recordName
        if page.newIDs[name] == nil,
           page.notRestored.contains(name) || page.deletionPending.contains(name) { return }
        page.archives.append((name, record))
        data.collections[name] = zone.collection
        let values = propertyValues(of: record, entity: entity, newIDs: page.newIDs)
        if data.rows[name]?.mutation != .save, hasUnresolvedReference(record, entity, values) {
            page.unresolved.append(name)
        }
        let attributes = values.filter {
            if case .attribute = $0.value { return true } else { return false }
        }
        let relationships = values.filter {
            if case .attribute = $0.value { return false } else { return true }
        }
        if let id = data.bindings.model(named: name), let model = store.model(id) {
            planUpdate(record, id: id, model: model, entity: entity, values: values,
                attributes: attributes, relationships: relationships, page: &page)
        } else if let id = page.newIDs[name] {
            noteDuplicate(record, entity: entity)
            page.transaction.append(.insert(id, entity: entity.name, values: attributes))
            if !relationships.isEmpty { page.links.append((id, relationships)) }
            page.inserted.append((id, name))
            page.applied += 1
        }
    }

    /// OBX-15: a fetched record of a local model updates the values that differ, unless an
    /// outbox save is pending: then the local values are kept.
    private func planUpdate(
        _ record: CloudRecord, id: ModelID, model: Model, entity: EntityDescription,
        values: [String: PropertyValue], attributes: [String: PropertyValue],
        relationships: [String: PropertyValue], page: inout FetchedPage
    ) {
        let name = record.recordName
        if data.rows[name]?.mutation == .save {
            page.kept.append(name)
            let local = OutboxRecords.fields(of: model, entity: entity) {
                self.data.bindings.name(of: $0)
            }.fields
            let differing = Set(local.keys).union(record.fields.keys).sorted().filter {
                local[$0] != record.fields[$0]
            }
            if !differing.isEmpty { page.overwrites.append((name, differing)) }
            return
        }
        var changed: [String: PropertyValue] = [:]
        for key in attributes.keys.sorted() where !same(values[key], model, key, entity) {
            changed[key] = values[key]
        }
        if !changed.isEmpty { page.transaction.append(.update(id, values: changed)) }
        var linked: [String: PropertyValue] = [:]
        for key in relationships.keys.sorted()
            where !same(values[key], model, key, entity) {
            linked[key] = values[key]
        }
        if !linked.isEmpty { page.links.append((id, linked)) }
        if !changed.isEmpty || !linked.isEmpty { page.applied += 1 }
    }

    /// OBX-16, OBX-18: fetched deletions of tracked zones delete their models, except those
    /// with a pending outbox save, which are kept.
    private func planDeletions(
        _ changes: CKSyncEngine.FetchedRecordZoneChanges, scope: DatabaseScope,
        page: inout FetchedPage
    ) {
        for deletion in changes.deletions {
            guard let zone = data.tracked(zone: deletion.recordID.zoneID),
                  role(of: scope) == zone.role else {
                page.dropped.append(deletion.recordID.recordName)
                continue
            }
            let name = deletion.recordID.recordName
            if data.rows[name]?.mutation == .save, let id = data.bindings.model(named: name),
               store.model(id) != nil {
                page.resurrect.append(name)
                continue
            }
            if let id = data.bindings.model(named: name), store.model(id) != nil {
                page.transaction.append(.delete(id))
            }
            page.deleted.append(name)
        }
    }

    /// After the page's save: the sync data follows the store (names, archives, rows).
    private func commitFetchedPage(_ page: FetchedPage) {
        for (id, name) in page.inserted { data.bindings.bind(id, to: name) }
        for (name, record) in page.archives {
            if data.archives[name]?.changeTag != record.changeTag { uploadedHere.remove(name) }
            data.archives[name] = record
        }
        for name in page.deleted {
            data.archives[name] = nil
            data.removeRow(name)
            if let id = data.bindings.model(named: name) { data.bindings.forget(id) }
        }
        for name in page.resurrect { data.archives[name] = nil }
        historyPosition = store.lastHistoryPosition
        data.pageAwaitingState = true
        writeAll()
    }

    /// The traces of an applied page, in a fixed order.
    private func traceFetchedPage(
        _ page: FetchedPage, scope: DatabaseScope
    ) {
        if !page.cascaded.isEmpty {
            // OBX-DR-1: the delete rule removed models whose own deletion was not fetched.
            trace("fetch.cascade-deleted", [
                TraceField("records", .list(page.cascaded.map { .string($0) })),
                TraceField("note",
                    .string("deleted by the delete rule, in the adapter's save: no delete row, "
                    + "their records stay in iCloud")),
            ], ["OBX-DR-1"])
        }
        if !page.unresolved.isEmpty {
            trace("fetch.reference-unresolved", [
                TraceField("records", .list(page.unresolved.map { .string($0) })),
                TraceField("note",
                    .string("a target not fetched yet: the relationship stays empty, and its "
                    + "later arrival does not set it")),
            ], ["OBX-DR-5", "OBX-15"])
        }
        if !page.dropped.isEmpty {
            trace("fetch.untracked-dropped",
                [TraceField("records", .list(page.dropped.map { .string($0) }))],
                  ["OBX-18"])
        }
        trace("fetch.applied", [
            TraceField("database", .string(scope.rawValue)),
            TraceField("applied", .int(Int64(page.applied))),
            TraceField("deleted", .int(Int64(page.deleted.count))),
        ], page.deleted.isEmpty ? ["OBX-15"] : ["OBX-15", "OBX-16"])
        if !page.kept.isEmpty {
            trace("fetch.local-kept", [
                TraceField("records", .list(page.kept.map { .string($0) })),
                TraceField("note",
                    .string("an outbox save is pending: local values kept, system fields "
                    + "archived")),
            ], ["OBX-15"])
        }
        for (name, differing) in page.overwrites {
            trace("fetch.newer-values-overwritten", [
                TraceField("record", .string(name)),
                TraceField("keys",
                    .list(differing.map { .string($0) })), // tidy: ordered (a sorted array)
                TraceField("note",
                    .string("the pending whole-record save will overwrite these keys")),
            ], ["OBXW-1", "OBX-15"])
        }
        if !page.resurrect.isEmpty {
            trace("fetch.deletion-refused", [
                TraceField("records", .list(page.resurrect.map { .string($0) })),
                TraceField("note",
                    .string("an outbox save is pending: the model is kept and created again in "
                    + "full")),
            ], ["OBX-16", "OBXW-2"])
        }
    }

    /// OBXW-11: a fetched insert whose identity values (which outbox ignores, OBX-35) equal
    /// those of another local model.
    func noteDuplicate(
        _ record: CloudRecord, entity: EntityDescription
    ) {
        guard !entity.identity.isEmpty else { return }
        let values = entity.identity.map { key in
            record.fields[key].flatMap { value in
                entity.attribute(named: key).flatMap {
                    OutboxRecords.attributeValue(value, type: $0.type)
                }
            }
        }
        guard !values.contains(where: { $0 == nil }) else { return }
        let twin = store.models(of: entity.name).first { model in
            entity.identity.map { model.values[$0] } == values
        }
        guard let twin else { return }
        trace("fetch.duplicate", [
            TraceField("record", .string(record.recordName)),
            TraceField("twin", .string(data.bindings.name(of: twin.id) ?? twin.id.description)),
        ], ["OBXW-11", "OBX-35"])
    }

    /// OBX-6: a fetched record this device has no model for, no row, and the archive of the
    /// very version it fetched: its model vanished in a batch delete and the record did not
    /// change remotely since, so nothing restores it (a fetch from scratch brings it back
    /// unchanged). A record changed remotely since is restored.
    func unchangedSinceVanished(_ record: CloudRecord) -> Bool {
        let name = record.recordName
        guard data.rows[name] == nil, let archived = data.archives[name],
              let tag = record.changeTag else { return false }
        return archived.changeTag == tag
    }

    /// OBXW-10: after a fetch from scratch (an expired token), local models of the fetched
    /// zones with no pending row whose records the fetch did not bring, neither as a record
    /// nor as a deletion (it brings those of records this device created): deleted
    /// elsewhere, and the deletion is missed.
    func noteMissedDeletions(scope: DatabaseScope) {
        let run = fetch(scope)
        var missed: [String] = []
        for name in data.bindings.sortedNames
        where !run.seen.contains(name) && data.rows[name] == nil && data.archives[name] != nil
            && !run.reportedMissed.contains(name) {
            guard let collection = data.collections[name], let zone = data.tracked(collection),
                  zone.role == role(of: scope) else { continue }
            missed.append(name)
        }
        guard !missed.isEmpty else { return }
        run.reportedMissed.formUnion(missed)
        trace("fetch.deletions-missed", [
            TraceField("records", .list(missed.map { .string($0) })),
            TraceField("note",
                .string("a fetch from scratch returns no deletions; these models stay")),
        ], ["OBXW-10", "OBX-24"])
    }

    /// OBX-DR-6: a zone this device saved since its last fetch, fetched from scratch, brings
    /// only what this device saved since, while it misses models of it that were uploaded:
    /// the save may have created it again after a deletion elsewhere, which no fetch reports.
    func noteSavedZoneFetchedEmpty(_ zone: ZoneID, scope: DatabaseScope) -> Bool {
        let run = fetch(scope)
        // This zone fetched from scratch: another one's in the same fetch tells nothing of it.
        guard run.zonesFromScratch.contains(zone), scope == .privateDatabase,
              zonesSavedSinceFetch.contains(zone), !run.zonesWithNews.contains(zone),
              let tracked = data.tracked(zone: zone), tracked.role == .owner else { return false }
        let held = data.bindings.sortedNames.filter { name in
            !run.seen.contains(name) && data.rows[name] == nil && data.archives[name] != nil
                && data.collections[name] == tracked.collection
        }
        guard !held.isEmpty else { return false }
        trace("fetch.saved-zone-empty", [
            TraceField("zone", .string(zone.description)),
            TraceField("records", .list(held.map { .string($0) })),
            TraceField("note", .string(
                "this device's zone save may have created it again; its deletion is missed")),
        ], ["OBX-DR-6", "OBX-25"])
        return true
    }

    /// OBX-DR-7: a zone fetched from scratch whose every record was created after the last
    /// version this device knew of each uploaded model it misses: no record that was there
    /// with them is left, so the zone may have been deleted and created again since.
    func noteZoneCreatedSinceMissedModels(_ zone: ZoneID, scope: DatabaseScope) {
        let run = fetch(scope)
        // Signed into another account, the fetch reads that account's zone (OBXW-7, OBX-DR-3).
        guard run.zonesFromScratch.contains(zone), scope == .privateDatabase,
              zone.owner == account,
              let tracked = data.tracked(zone: zone), tracked.role == .owner else { return }
        // A model whose last known record is in another zone (another account's) was not here.
        let held = data.bindings.sortedNames.filter { name in
            !run.seen.contains(name) && data.rows[name] == nil
                && data.archives[name]?.zone == zone && data.collections[name] == tracked.collection
        }
        let lastKnown = held.map { data.archives[$0]?.modificationTime }
        guard !held.isEmpty, !lastKnown.contains(nil) else { return }
        // The latest time this device knew each of them there: its last save or fetch of it,
        // or the zone's last fetch with a token.
        let fetched = zoneFetchedWithToken[zone] ?? .zero
        if let earliest = run.earliestCreation[zone], lastKnown.contains(where: {
            $0.map { max($0, fetched) >= earliest } ?? true }) { return }
        // The race loses the versions this device uploaded; another's stay on that device.
        let own = held.filter { uploadedHere.contains($0) }
        guard !own.isEmpty else { return }
        trace("fetch.zone-newer-than-missed", [
            TraceField("zone", .string(zone.description)),
            TraceField("records", .list(own.map { .string($0) })),
            TraceField("note", .string(
                "every record of the zone is newer than these models: it may have been deleted "
                + "and created again elsewhere, a deletion this fetch cannot report")),
        ], ["OBX-DR-7", "OBX-25"])
    }

    /// Choice under OBX-18: a `Collection-*` zone of the device's own private database that
    /// the database feed reports is another device's collection of this account: tracked as
    /// owned, so its records are applied.
    func adoptOwnCollectionZones(
        _ zones: [ZoneID], scope: DatabaseScope
    ) {
        guard scope == .privateDatabase, let owner = zoneOwner() else { return }
        for zone in zones where zone.owner == owner && data.tracked(zone: zone) == nil {
            let prefix = "Collection-"
            guard zone.name.hasPrefix(prefix) else { continue }
            let collection = String(zone.name.dropFirst(prefix.count))
            data.zones.removeAll { $0.collection == collection }
            data.zones.append(TrackedZone(zone: zone, collection: collection, role: .owner))
            trace("zone.tracked", [
                TraceField("zone", .string(zone.description)),
                TraceField("note", .string("another device's collection of this account")),
            ], ["OBX-18", "OBX-2"])
            writeSyncData()
        }
    }

    func role(of scope: DatabaseScope) -> TrackedZone.Role {
        scope == .privateDatabase ? .owner : .participant
    }

    /// Every synchronized property from the record: a key it lacks becomes nil (or the
    /// default); references name models by their record names.
    func propertyValues(
        of record: CloudRecord, entity: EntityDescription, newIDs: [String: ModelID] = [:]
    ) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for attribute in entity.synchronizedAttributes {
            let value = record.fields[attribute.name].flatMap {
                OutboxRecords.attributeValue($0, type: attribute.type)
            }
            values[attribute.name] = .attribute(value
                ?? (attribute.isOptional ? nil : attribute.defaultValue))
        }
        for relationship in entity.synchronizedToOneRelationships {
            var target: String?
            if case .reference(let name, _)? = record.fields[relationship.name] { target = name }
            if relationship.isParent, let parent = record.parent { target = parent }
            let id = target.flatMap { name in
                newIDs[name] ?? data.bindings.model(named: name).flatMap { store.model($0)?.id }
            }
            values[relationship.name] = .relationship(id)
        }
        return values
    }

    private func same(
        _ value: PropertyValue?, _ model: Model, _ key: String, _ entity: EntityDescription
    ) -> Bool {
        switch value {
        case .attribute(let attribute)?: return model.values[key] == attribute
        case .relationship(let target)?: return model.toOne[key] == target
        default: return true
        }
    }

    /// The answers of a sent batch (OBX-13, 14, 17, 19, 20, 21, 25, 31, 32, 34, 36).
    func handleSent(
        _ sent: CKSyncEngine.SentRecordZoneChanges, scope: DatabaseScope, engine: CKSyncEngine
    ) {
        acceptSentRecords(sent, editedInFlight: send(scope).editedInFlight)
        var missingZones: [(ZoneID, String)] = []
        var requeue: [CKSyncEngine.PendingRecordZoneChange] = []
        handleFailedSaves(sent, missingZones: &missingZones, requeue: &requeue)
        handleFailedDeletes(sent, missingZones: &missingZones, requeue: &requeue)
        // The records accepted in the batch are committed before any zone is recovered.
        writeAll()
        if !requeue.isEmpty { engine.state.add(pendingRecordZoneChanges: requeue) }
        for (zone, reason) in missingZones {
            zoneGone(zone, reason: reason, scope: scope)
        }
        lastRejectionReason = data.lastRejectionReason
    }

    /// OBX-13: the saved and deleted records of a batch lose their rows.
    private func acceptSentRecords(
        _ sent: CKSyncEngine.SentRecordZoneChanges, editedInFlight: [String]
    ) {
        var accepted: [String] = []
        for record in sent.savedRecords {
            let name = record.recordName
            data.archives[name] = record
            if editedInFlight.contains(name), let id = data.bindings.model(named: name),
               let model = store.model(id),
               let entity = entity(model.entity),
               OutboxRecords.fields(of: model, entity: entity,
                   recordName: { self.data.bindings.name(of: $0) }).fields
                != record.fields {
                trace("outbox.edit-lost", [
                    TraceField("record", .string(name)),
                    TraceField("note",
                        .string("edited while its save was in flight; the success deleted the "
                        + "row")),
                ], ["OBXW-3", "OBX-13"])
            }
            if data.rows[name]?.rejection != nil { data.lastRejectionReason = nil }
            data.removeRow(name)
            accepted.append(name)
            if !zonesSavedSinceFetch.isEmpty { recordsSavedSinceZoneSave.insert(name) }
            uploadedHere.insert(name)
        }
        for id in sent.deletedRecordIDs {
            data.removeRow(id.recordName)
            data.archives[id.recordName] = nil
            accepted.append(id.recordName)
        }
        if !accepted.isEmpty {
            trace("outbox.accepted", [TraceField("records", .list(accepted.map { .string($0) }))],
                ["OBX-13"])
        }
    }

    /// OBX-14, OBX-19, OBX-20: each refused save is a missing zone, a conflict, a retry, or a
    /// failure.
    private func handleFailedSaves(
        _ sent: CKSyncEngine.SentRecordZoneChanges, missingZones: inout [(ZoneID, String)],
        requeue: inout [CKSyncEngine.PendingRecordZoneChange]
    ) {
        for failure in sent.failedRecordSaves {
            let record = failure.record
            let name = record.recordName
            let code = failure.error.code
            switch code {
            case .zoneNotFound, .userDeletedZone:
                if !missingZones.contains(where: { $0.0 == record.zone }) {
                    missingZones.append((record.zone, code.description))
                }
            case .serverRecordChanged:
                resolveConflict(local: record, error: failure.error)
                // Queued in the server copy's zone, whose system fields were archived: the
                // cloud may have resolved the zone's owner into another account (OBX-14).
                let zone = failure.error.serverRecord?.zone ?? record.zone
                requeue.append(.saveRecord(RecordID(recordName: name, zoneID: zone)))
            default:
                if Self.retryable.contains(code) {
                    trace("save.retry", [
                        TraceField("record", .string(name)),
                        TraceField("error", .string(code.description)),
                    ], ["OBX-19"])
                    if !code.isTransient {
                        requeue.append(.saveRecord(RecordID(recordName: name, zoneID: record.zone)))
                    }
                } else {
                    if code == .unknownItem,
                       record.changeTag != nil { recordDeletedElsewhere(name) }
                    markRecordFailed(name, code: code)
                }
            }
        }
    }

    /// OBX-17, OBX-19, OBX-21: each refused delete is already gone, a missing zone, a retry,
    /// or a failure.
    private func handleFailedDeletes(
        _ sent: CKSyncEngine.SentRecordZoneChanges, missingZones: inout [(ZoneID, String)],
        requeue: inout [CKSyncEngine.PendingRecordZoneChange]
    ) {
        for failure in sent.failedRecordDeletes {
            let name = failure.recordID.recordName
            let code = failure.error.code
            if code == .unknownItem {
                data.removeRow(name)
                trace("delete.already-gone", [TraceField("record", .string(name))], ["OBX-17"])
            } else if code == .zoneNotFound || code == .userDeletedZone {
                if !missingZones.contains(where: { $0.0 == failure.recordID.zoneID }) {
                    missingZones.append((failure.recordID.zoneID, code.description))
                }
            } else if Self.retryable.contains(code) {
                trace("delete.retry", [
                    TraceField("record", .string(name)),
                    TraceField("error", .string(code.description)),
                ], ["OBX-19"])
                if !code.isTransient { requeue.append(.deleteRecord(failure.recordID)) }
            } else {
                if var row = data.rows[name] { row.attempted = false; data.rows[name] = row }
                trace("delete.failed", [
                    TraceField("record", .string(name)),
                    TraceField("error", .string(code.description)),
                    TraceField("note",
                        .string("message only; the row stays for the next reconcile")),
                ], ["OBX-21"])
            }
        }
    }

    /// OBX-19: the codes the seed's retry policy retries.
    static let retryable: [CloudErrorCode] = [
        .networkFailure, .networkUnavailable, .zoneBusy, .serviceUnavailable, .notAuthenticated,
        .operationCancelled, .requestRateLimited, .resultsTruncated, .accountTemporarilyUnavailable,
    ]

    /// OBX-14: `resolveConflict(local, server)`: every local value kept, the server's
    /// system fields archived, the save queued again: the next send overwrites the server.
    func resolveConflict(local: CloudRecord, error: CloudError) {
        let name = local.recordName
        guard let server = error.serverRecord else { return }
        let ancestor = data.archives[name]
        data.archives[name] = server
        var overwritten: [String] = []
        let allKeys = Set(server.fields.keys).union(local.fields.keys).sorted()
        for key in allKeys // tidy: ordered (sorted above)
            where server.fields[key] != local.fields[key] {
            // The other device changed this key and this one did not: its value is lost.
            let theirs = server.fields[key] != ancestor?.fields[key]
            let mine = local.fields[key] != ancestor?.fields[key]
            if ancestor == nil || (theirs && !mine) { overwritten.append(key) }
        }
        trace("outbox.conflict", [
            TraceField("record", .string(name)),
            TraceField("note", .string("local values kept; the save is queued again")),
        ], ["OBX-14"])
        if !overwritten.isEmpty {
            trace("conflict.overwrites", [
                TraceField("record", .string(name)),
                TraceField("keys", .list(overwritten.map { .string($0) })),
            ], ["OBXW-1", "OBX-14"])
        }
        effects.append(.probe("outbox.conflict"))
    }

    /// OBX-16 (choice): a save sent with the archived system fields of a record this device
    /// uploaded or fetched fails with `unknownItem` only when the record was deleted since.
    /// That answer is handled as the fetched deletion would be: the model and its row stay,
    /// the archive is cleared, so the next reconcile creates the record again in full
    /// (OBXW-2). Without this a device that never fetched the zone since it created the record
    /// (a nil token brings no deletions) would resend the stale change tag forever.
    func recordDeletedElsewhere(_ name: String) {
        guard data.rows[name]?.mutation == .save, data.archives[name] != nil else { return }
        data.archives[name] = nil
        trace("save.record-deleted", [
            TraceField("record", .string(name)),
            TraceField("note",
                .string("deleted elsewhere: system fields cleared; the next reconcile creates it "
                + "again in full")),
        ], ["OBX-16", "OBXW-2"])
    }

    /// OBX-20: `markRecordFailed`: the row stays, `lastRejectionReason` is set, nothing
    /// brings it back but the next reconcile.
    func markRecordFailed(_ name: String, code: CloudErrorCode) {
        if var row = data.rows[name] {
            row.rejection = code.description
            row.attempted = false
            data.rows[name] = row
        }
        data.lastRejectionReason = code.description
        var rules = ["OBX-20"]
        switch code {
        case .permissionFailure: rules.append("OBX-32")
        case .limitExceeded: rules += ["OBX-34", "OBXW-5"]
        case .invalidArguments: rules += ["OBX-36", "OBXW-5"]
        case .quotaExceeded: rules.append("OBXW-5")
        // The record was deleted elsewhere while this device edited it: the devices disagree
        // until the deletion is fetched and the model created again (OBXW-2).
        case .unknownItem: rules.append("OBXW-2")
        default: break
        }
        trace("save.failed", [
            TraceField("record", .string(name)), TraceField("error", .string(code.description)),
            TraceField("note",
                .string("kept in the outbox; staged again only by the next reconcile")),
        ], rules)
    }
}
