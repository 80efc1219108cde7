import CKSyncEngineSim
import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension OutboxEngine {
    /// A tracked zone went missing: an owned one is restored (OBX-25), a shared one was
    /// revoked (OBX-31). Zones the engine does not track are ignored.
    func zoneGone(
        _ zone: ZoneID, reason: String, scope: DatabaseScope
    ) {
        guard let tracked = data.tracked(zone: zone),
              tracked.role == role(of: scope) else { return }
        switch tracked.role {
        case .owner:
            recoverOwnedZone(tracked, reason: reason)
        case .participant:
            revokeSharedZone(tracked, reason: reason)
        }
    }

    /// OBX-25: the zone is ensured again and every local model of its collection queued
    /// again with its system fields cleared; the reason is ignored (OBXW-6 for a purge).
    func recoverOwnedZone(_ tracked: TrackedZone, reason: String) {
        ensureZoneExists(collection: tracked.collection)
        let queued = requeueRecords(forCollection: tracked.collection)
        trace("zone.recovered", [
            TraceField("zone", .string(tracked.zone.description)),
            TraceField("reason", .string(reason)),
            TraceField("requeued", .int(Int64(queued))),
        ], ["OBX-25"])
        if reason == "purged" || reason == "userDeletedZone" {
            trace("zone.purge-undone", [
                TraceField("zone", .string(tracked.zone.description)),
                TraceField("note",
                    .string("the user's purge is created again and filled from the device")),
            ], ["OBXW-6", "OBX-25"])
        } else if queued > 0 {
            trace("zone.refilled-from-device", [
                TraceField("zone", .string(tracked.zone.description)),
                TraceField("note", .string(
                    "deletions made elsewhere that this device never fetched come back")),
            ], ["OBX-DR-2", "OBX-25"])
        }
        writeAll()
        effects.append(.probe("outbox.zone.recovered"))
        reconcileOutbox(reason: "zone recovery")
    }

    /// `requeueRecords(forCollection:)`: a save row for every local model of the collection,
    /// with its archived system fields cleared. Returns how many.
    @discardableResult
    func requeueRecords(forCollection collection: String?) -> Int {
        var count = 0
        for model in store.models {
            guard let entity = entity(model.entity) else { continue }
            let modelCollection = collectionID(of: model, entity: entity)
            if let collection, modelCollection != collection { continue }
            if collection == nil, let tracked = data.tracked(modelCollection),
               tracked.role == .participant { continue }
            if collection == nil, data.revoked.contains(modelCollection) { continue }
            let name = recordName(of: model.id)
            data.archives[name] = nil
            var row = data.rows[name] ?? OutboxRow(
                recordName: name, recordType: entity.name, collection: modelCollection,
                mutation: .save)
            row.mutation = .save
            row.collection = modelCollection
            data.setRow(row)
            data.collections[name] = modelCollection
            count += 1
        }
        return count
    }

    /// OBX-31: the zone is untracked, its collection unmapped, and
    /// `recoverFromRevokedShare(collection)` keeps the local copies (OBXW-8).
    func revokeSharedZone(_ tracked: TrackedZone, reason: String) {
        data.zones.removeAll { $0.zone == tracked.zone }
        if !data.revoked.contains(tracked.collection) { data.revoked.append(tracked.collection) }
        let copies = data.collections.keys.sorted().filter {
            data.collections[$0] == tracked.collection
        }
            .filter { data.bindings.model(named: $0) != nil }
        trace("share.revoked", [
            TraceField("zone", .string(tracked.zone.description)),
            TraceField("reason", .string(reason)),
            TraceField("kept", .int(Int64(copies.count))),
            TraceField("note", .string("recoverFromRevokedShare: the local copies are kept")),
        ], ["OBX-31"])
        if !copies.isEmpty {
            trace("share.copies-kept", [TraceField("records", .list(copies.map { .string($0) }))],
                  ["OBXW-8", "OBX-31"])
        }
        writeSyncData()
        effects.append(.probe("outbox.share.revoked"))
    }

    /// OBX-26: the adapter acts on the kind of account change.
    func accountChange(_ change: CKSyncEngine.AccountChange) {
        switch change.changeType {
        case .signIn(let user):
            data.lastUser = user
            data.zoneOwner = account(ofUser: user)
            signedOut = false
            trace("account.sign-in", [TraceField("user", .string(user))], ["OBX-26"])
            ensureOwnedZones(reason: "sign-in")
            reconcileOutbox(reason: "sign-in")
        case .signOut:
            signedOut = true
            trace("account.sign-out", [
                TraceField("note", .string("availability signed out; local data kept")),
            ], ["OBX-26"])
            writeSyncData()
        case .switchAccounts(let previous, let user):
            data.reportedSwitches += 1
            data.lastUser = user
            data.zoneOwner = account(ofUser: user)
            signedOut = false
            data.zones.removeAll()
            data.prepared = []
            let hasData = !store.models.isEmpty
            let queued = requeueRecords(forCollection: nil)
            trace("account.switched", [
                TraceField("from", .string(previous)), TraceField("to", .string(user)),
                TraceField("requeued", .int(Int64(queued))),
            ], ["OBX-26"])
            if hasData && queued > 0 {
                trace("account.data-carried-over", [
                    TraceField("note",
                        .string("the previous account's local data is queued into the new "
                        + "account")),
                ], ["OBXW-7", "OBX-26"])
            }
            ensureOwnedZones(reason: "account switch")
            writeAll()
            reconcileOutbox(reason: "account switch")
        }
    }

    /// OBX-3: the account of the user a CKSyncEngine reported, by its user record name
    /// (`CKContainer.userRecordID()`); the device may have switched again since that check.
    func account(ofUser user: String) -> String? {
        let known = [account, data.zoneOwner].compactMap { $0 }
        return known.first { CloudService.userRecordName(for: $0) == user } ?? account
    }

    // MARK: Sharing (OBX-28..30)

    /// The accepted share's metadata: a look at the shared database for zones this device
    /// can read and does not track yet.
    func checkForAcceptedShares() {
        guard adoptionRequest == nil, account != nil, isOnline, !signedOut else { return }
        nextOwnRequest += 1
        let id = RequestID(nextOwnRequest)
        adoptionRequest = id
        effects.append(.send(id, .fetchDatabaseChanges(scope: .sharedDatabase, token: nil)))
    }

    func adoptionAnswered(_ response: CloudResponse) {
        guard case .databaseChanges(let changed, _, _, _) = response else { return }
        var adopted = false
        for zone in changed where data.tracked(zone: zone) == nil {
            let prefix = "Collection-"
            let collection = zone.name.hasPrefix(prefix)
                ? String(zone.name.dropFirst(prefix.count)) : zone.name
            // OBX-30: prepareToAdoptShare, scoped to this one collection; the reference
            // adapter changes nothing.
            if !data.prepared.contains(collection) { data.prepared.append(collection) }
            trace("share.prepare", [
                TraceField("collection", .string(collection)),
                TraceField("note", .string("scoped to this collection; nothing else touched")),
            ], ["OBX-30"])
            data.revoked.removeAll { $0 == collection }
            data.zones.append(TrackedZone(zone: zone, collection: collection, role: .participant))
            trace("share.adopted", [
                TraceField("zone", .string(zone.description)),
                TraceField("collection", .string(collection)),
                TraceField("role", .string("participant")),
            ], ["OBX-29"])
            effects.append(.probe("outbox.share.adopted"))
            adopted = true
        }
        guard adopted else { return }
        writeSyncData()
        activateSharedEngineIfNeeded()
        if let engine = sharedEngine { take(engine.fetchChanges()) }
    }
}
