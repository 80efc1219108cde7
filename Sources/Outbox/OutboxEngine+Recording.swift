import CKSyncEngineSim
import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension OutboxEngine {
    /// OBX-4: the app saved; every model it changed gets exactly one outbox row, written in
    /// the same step as the save (the device hands the save to the engine before anything
    /// else can happen, and the row is the engine's first write); then the outbox is
    /// reconciled (OBX-7).
    func storeSaved() {
        let entries = store.history(after: historyPosition)
        historyPosition = store.lastHistoryPosition
        var written: [String] = []
        var newRoots: [String] = []
        for entry in entries where entry.author == "app" {
            for change in entry.changes {
                switch change {
                case .inserted(let id, let entityName), .updated(let id, let entityName, _):
                    guard let entity = recordingEntity(entityName),
                          let model = store.model(id) else { continue }
                    let name = recordSave(of: model, entity: entity)
                    if entity.isSharable, case .inserted = change {
                        newRoots.append(data.collections[name] ?? Self.mainCollection)
                    }
                    written.append(name)
                case .deleted(let id, let entityName, _):
                    guard recordingEntity(entityName) != nil,
                          let name = data.bindings.name(of: id) else { continue }
                    let collection = data.collections[name] ?? Self.mainCollection
                    noteDeletionRecorded(name)
                    var row = data.rows[name] ?? OutboxRow(
                        recordName: name, recordType: entityName, collection: collection,
                        mutation: .delete)
                    row.mutation = .delete
                    row.attempted = false
                    data.setRow(row)
                    data.bindings.forget(id)
                    written.append(name)
                }
            }
        }
        noteVanishedModels()
        guard !written.isEmpty else { return }
        writeAll()
        trace("outbox.committed", [
            TraceField("rows", .list(written.map { .string($0) })),
            TraceField("collections",
                .list(written.map { .string(data.rows[$0]?.collection ?? Self.mainCollection) })),
        ], ["OBX-4", "OBX-2"])
        effects.append(.probe("outbox.committed"))
        for collection in newRoots where data.tracked(collection) == nil {
            ensureZoneExists(collection: collection)
        }
        guard autosync else { return }
        reconcileOutbox(reason: "commit")
    }

    /// OBX-4: the save row of a model the app inserted or changed, in its collection (OBX-2);
    /// returns its record name.
    private func recordSave(of model: Model, entity: EntityDescription) -> String {
        let isNew = data.bindings.name(of: model.id) == nil
        let name = recordName(of: model.id)
        if isNew {
            trace("record.named", [TraceField("record", .string(name))], ["OBX-1", "OBX-35"])
        }
        let collection = collectionID(of: model, entity: entity)
        if !isNew, let previous = data.collections[name], previous != collection {
            // The row names the new collection only: the old zone's record is left as it is.
            trace("record.collection-changed", [
                TraceField("record", .string(name)),
                TraceField("from", .string(previous)),
                TraceField("to", .string(collection)),
            ], ["OBX-DR-4", "OBX-2"])
        }
        var row = data.rows[name] ?? OutboxRow(
            recordName: name, recordType: entity.name, collection: collection, mutation: .save)
        row.mutation = .save
        row.collection = collection
        row.attempted = false
        data.setRow(row)
        data.collections[name] = collection
        data.recordedUnder[name] = RecordedAccount(
            account: account, switches: data.reportedSwitches)
        noteEditedInFlight(name)
        if data.revoked.contains(collection) {
            trace("outbox.unsendable", [
                TraceField("record", .string(name)),
                TraceField("collection", .string(collection)),
            ], ["OBXW-8", "OBX-31"])
        }
        return name
    }

    /// OBX-DR-3: a deletion's row is recorded under the account signed in now, unless it
    /// replaces an unsent row recorded under another one with no switch reported since: that
    /// edit is carried over with it, and the other account never gets it.
    private func noteDeletionRecorded(_ name: String) {
        if data.rows[name] != nil, let earlier = data.recordedUnder[name],
           earlier.account != nil, earlier.account != account,
           earlier.switches == data.reportedSwitches { return }
        data.recordedUnder[name] = RecordedAccount(
            account: account, switches: data.reportedSwitches)
    }

    /// OBXW-3: an edit of a record whose save is in flight, in its database's send.
    func noteEditedInFlight(_ name: String) {
        noteEditedInFlight(name, scope: .privateDatabase)
        noteEditedInFlight(name, scope: .sharedDatabase)
    }

    private func noteEditedInFlight(_ name: String, scope: DatabaseScope) {
        guard case .sending(let run) = operation(scope).phase, run.inFlight.contains(name),
              !run.editedInFlight.contains(name) else { return }
        run.editedInFlight.append(name)
    }

    /// OBX-6, OBXW-9: models gone from the store without a deletion the app saved (a batch
    /// delete): no row is written, their records stay in iCloud. Their names are forgotten.
    func noteVanishedModels() {
        let gone = data.bindings.sortedModels.filter { store.model($0) == nil }
        guard !gone.isEmpty else { return }
        let names = gone.compactMap { data.bindings.name(of: $0) }
        for id in gone { data.bindings.forget(id) }
        trace("store.models-vanished", [
            TraceField("records", .list(names.map { .string($0) })),
            TraceField("note", .string("no outbox row: the records stay in iCloud")),
        ], ["OBX-6", "OBXW-9"])
        writeSyncData()
    }

    func recordingEntity(_ name: String) -> EntityDescription? {
        guard let entity = recordingSchema.entity(named: name),
              entity.isSynchronized else { return nil }
        return entity
    }

    /// OBX-1: the model's stable UUID, drawn once and kept on disk.
    func recordName(of id: ModelID) -> String {
        if let name = data.bindings.name(of: id) { return name }
        let name = working?.makeRandomRecordName() ?? id.description
        data.bindings.bind(id, to: name)
        return name
    }

    /// OBX-2: the collection of a model: the record name of the sharable root above it (or
    /// itself), else `main`.
    func collectionID(of model: Model, entity: EntityDescription) -> String {
        // A copy downloaded through a share stays in its shared collection.
        if let name = data.bindings.name(of: model.id), let known = data.collections[name],
           data.tracked(known)?.role == .participant || data.revoked.contains(known) {
            return known
        }
        var current = model
        var currentEntity = entity
        for _ in 0..<64 {
            if currentEntity.isSharable { return recordName(of: current.id) }
            guard let parent = currentEntity.parentRelationship,
                  let target = current.toOne[parent.name],
                  let next = store.model(target),
                  let nextEntity = schema.entity(named: next.entity) else { break }
            current = next
            currentEntity = nextEntity
        }
        return Self.mainCollection
    }

    /// OBX-3: `ensureZoneExists` for every owned collection that has local models (and
    /// `main`, which always exists), idempotent.
    func ensureOwnedZones(reason: String) {
        var collections: [String] = []
        for model in store.models {
            guard let entity = entity(model.entity) else { continue }
            let collection = collectionID(of: model, entity: entity)
            if let tracked = data.tracked(collection), tracked.role == .participant { continue }
            if data.prepared.contains(collection) && data.tracked(collection) == nil { continue }
            if data.revoked.contains(collection) { continue }
            if !collections.contains(collection) { collections.append(collection) }
        }
        if !collections.contains(Self.mainCollection) {
            collections.insert(Self.mainCollection, at: 0)
        }
        for collection in collections {
            ensureZoneExists(collection: collection)
        }
        trace("zones.ensured", [
            TraceField("reason", .string(reason)),
            TraceField("collections", .list(collections.map { .string($0) })),
        ], ["OBX-3"])
    }

    /// `ensureZoneExists(zone, collectionID)`: tracked as owned, and a pending `saveZone`
    /// (sent before any record change of the run). The zone is named by the CKSyncEngine's
    /// user (`zoneOwner`), not by an account switch it has not reported.
    func ensureZoneExists(collection: String) {
        guard let owner = zoneOwner(), let engine = privateEngine else { return }
        let zone = ZoneID(owner: owner, name: Self.zoneName(ofCollection: collection))
        if data.tracked(collection) == nil || data.tracked(collection)?.zone != zone {
            if let stale = data.tracked(collection)?.zone, stale.owner != owner {
                // Named for a user the CKSyncEngine no longer reports: never answered as such.
                engine.state.remove(pendingDatabaseChanges: [.saveZone(stale)])
                engine.state.remove(pendingRecordZoneChanges:
                    engine.state.pendingRecordZoneChanges.filter { $0.recordID.zoneID == stale })
            }
            data.zones.removeAll { $0.collection == collection }
            data.zones.append(TrackedZone(zone: zone, collection: collection, role: .owner))
            writeSyncData()
        }
        engine.state.add(pendingDatabaseChanges: [.saveZone(zone)])
        flush(engine)
    }

    /// OBX-3: the account the owned zones are named by, the CKSyncEngine's user as last
    /// reported (OBX-26); before any report, the account signed in at the first zone ensured.
    func zoneOwner() -> String? {
        if data.zoneOwner == nil, let account { data.zoneOwner = account }
        return data.zoneOwner
    }

    /// OBX-7: `reconcileOutbox()`: every row whose collection is mapped to a tracked zone is
    /// marked attempted and staged in that zone's engine; the others stay and are not sent.
    func reconcileOutbox(reason: String) {
        var staged: [String] = []
        var unmapped: [String] = []
        var byEngine: [(CKSyncEngine, [CKSyncEngine.PendingRecordZoneChange])] = []
        for row in data.orderedRows {
            guard let zone = data.tracked(row.collection),
                  let engine = engine(for: zone.role) else {
                unmapped.append(row.recordName)
                continue
            }
            let id = RecordID(recordName: row.recordName, zoneID: zone.zone)
            let change: CKSyncEngine.PendingRecordZoneChange =
                row.mutation == .save ? .saveRecord(id) : .deleteRecord(id)
            if let index = byEngine.firstIndex(where: { $0.0 === engine }) {
                byEngine[index].1.append(change)
            } else {
                byEngine.append((engine, [change]))
            }
            var marked = row
            marked.attempted = true
            data.rows[row.recordName] = marked
            staged.append(row.recordName)
        }
        for (engine, changes) in byEngine {
            engine.state.add(pendingRecordZoneChanges: changes)
            flush(engine)
        }
        if !staged.isEmpty { writeSyncData() }
        // OBX-8: changes added to an engine that syncs automatically schedule its send, after
        // the scheduler's delay.
        let schedules = !staged.isEmpty && autosync
        trace("outbox.reconciled", [
            TraceField("reason", .string(reason)),
            TraceField("staged", .list(staged.map { .string($0) })),
            TraceField("unmapped", .list(unmapped.map { .string($0) })),
        ], schedules ? ["OBX-7", "OBX-8"] : ["OBX-7"])
        if !unmapped.isEmpty,
           unmapped.contains(where: { data.collections[$0].map(data.revoked.contains) ?? false }) {
            trace("outbox.unsent", [
                TraceField("records", .list(unmapped.map { .string($0) })),
                TraceField("note", .string("their collection's share was revoked: never sent")),
            ], ["OBXW-8"])
        }
        effects.append(.probe("outbox.reconciled"))
    }
}
