import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// The most items one upload request carries (CloudKit's 400-item limit).
    static let maxItemsPerUpload = 400
    /// Up to this many deletions in a request, a save's name is searched in their list.
    static let deletionsSearchedInList = 8
    /// ERR-4: how long uploads pause while iCloud storage is full.
    static let quotaPause = SimTime.minutes(30)
    /// SCHEMA-4 / ERR-7: how long a rejected record is set aside.
    static let rejectionPause = SimTime.hours(1)

    /// Builds the next upload request of this run from the pending changes, or nil when
    /// nothing is left that this run has not tried yet.
    ///
    /// Models saved while nothing observed the store (adoptions) go in requests of their own
    /// with `ifServerRecordUnchanged` and no change tag, so an existing record is never
    /// overwritten (ADOPT-2); other changes use `changedKeys` (ID-3).
    func makeUploadRequest(_ current: SyncRun, context: inout SDSContext) -> CloudRequest? {
        guard !uploadsHeldForFullDownload(context: context)
        else { return nil }
        let upload = current.upload
        // Only a change that is not a plain insert can be an adoption.
        let adoption = context.syncData.pending.othersInOrder.contains { id in
            guard let pending = context.syncData.pending[id], pending.isAdoption,
                  let name = context.syncData.recordName(of: id) else { return false }
            return !upload.attemptedAdoptions.contains(name)
                && isUploadable(name, context: context)
        }
        // SYNC-6: after a failed download, edits are uploaded only for records that exist.
        // (Each asked only when it may make a request: an answer of nil, a large optional
        // request, cost more to return and test than the question.)
        if current.downloadFailed, let check = existenceCheckRequest(current, context: context) {
            return check
        }
        // BIG-3: records whose overflow asset is involved are fetched first.
        if mayFetchOverflow(upload, context: context),
           let fetch = overflowFetchRequest(current, context: context) { return fetch }
        let target = uploadZone(upload, adoption: adoption, context: context)
        // Decided once: building the app's zone to compare copies the account's name.
        let targetIsOwn = target == appZone(context)
        // The batch's parts, gathered here and moved into it at the end. (Kept in a batch
        // value from the start, a part assigned into it whole made the compiler refuse to
        // `consume` the batch into the run.)
        var saved: [UploadBatch.Save] = []
        var deletedNames: [String] = []
        var saves: [RecordSave] = []
        var budget = Self.maxItemsPerUpload
        collectDeletions(upload, adoption: adoption, target: target, targetIsOwn: targetIsOwn,
            budget: &budget, deletedNames: &deletedNames, context: context)
        let savesPaused = targetIsOwn ? quotaPausedUntil != nil : sharedQuotaPausedUntil != nil
        if !savesPaused {
            collectSaves(upload, adoption: adoption, target: target, targetIsOwn: targetIsOwn,
                deletedNames: deletedNames, budget: &budget, saves: &saves, saved: &saved,
                context: &context)
        }
        guard !saves.isEmpty || !deletedNames.isEmpty else { return nil }
        upload.uploadRequests += 1
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.batch",
            details: [TraceField("saves", .list(saves.map { .string($0.record.recordName) })),
                      TraceField("deletes", .list(deletedNames.map { .string($0) })),
                      TraceField("policy",
                          .string(adoption ? "ifServerRecordUnchanged" : "changedKeys"))],
            // ERR-6: deletions still go while the quota pauses saves.
            rules: adoption ? ["ADOPT-2"] : (savesPaused && !deletedNames.isEmpty ? ["ERR-6"] : [])
        )
        if !targetIsOwn || !context.syncData.recordZones.isEmpty {
            noteZones(of: saved, target: target, targetIsOwn: targetIsOwn, adoption: adoption,
                      context: &context)
        }
        let request = CloudRequest.modifyRecords(
            scope: targetIsOwn ? .privateDatabase : .sharedDatabase,
            zone: target,
            saves: saves,
            deletes: deletedNames,
            policy: adoption ? .ifServerRecordUnchanged : .changedKeys,
            atomic: false
        )
        // Kept to match the answer against (its parts moved into the run, not copied).
        upload.batch = UploadBatch(
            saved: saved, deletedNames: deletedNames, isAdoption: adoption, zone: target)
        return request
    }

    /// SYNC-7: while every record must be downloaded first, no upload request is made.
    private func uploadsHeldForFullDownload(context: SDSContext) -> Bool {
        guard context.syncData.needsFullDownload && context.syncData.fullDownloadAttempts < 3
        else { return false }
        if context.syncData.isRedownloading && context.syncData.pendingCount > 0 {
            effects.addTrace(detailed: context.isTracing, kind: "upload.held",
                details: [TraceField("reason",
                .string("every record must be downloaded first"))], rules: ["SYNC-7"])
        }
        return true
    }

    /// The pending deletions of the target zone this run has not tried and none holds, up to
    /// the budget (never with adoptions).
    private func collectDeletions(
        _ upload: UploadRun, adoption: Bool, target: ZoneID, targetIsOwn: Bool,
        budget: inout Int, deletedNames: inout [String], context: SDSContext
    ) {
        let held = heldDeletions(context: context)
        guard !adoption else { return }
        for name in context.syncData.pendingDeletions.names where budget > 0 {
            guard uploads(name, model: nil, to: target, targetIsOwn: targetIsOwn,
                  context: context)
            else { continue }
            guard !upload.attempted.contains(name), !held.contains(name) else { continue }
            deletedNames.append(name)
            upload.attempted.insert(name)
            budget -= 1
        }
        if !context.syncData.staleCopies.isEmpty {
            collectStaleCopies(upload, target: target, budget: &budget,
                               deletedNames: &deletedNames, context: context)
        }
    }

    /// The saves of the target zone's pending changes (adoptions or not, as decided), in
    /// identifier order up to the budget, each remembered as unanswered (SYNC-4).
    private func collectSaves(
        _ upload: UploadRun, adoption: Bool, target: ZoneID, targetIsOwn: Bool,
        deletedNames: [String], budget: inout Int, saves: inout [RecordSave],
        saved: inout [UploadBatch.Save], context: inout SDSContext
    ) {
        // The names deleted by this request, for the check below (the list keeps their order):
        // none, most of the time, or a few, searched in the list (a name compares in a few
        // instructions, where hashing it and making a set cost far more); a set only for many.
        let deletedSet = deletedNames.count > Self.deletionsSearchedInList ? Set(deletedNames) : nil
        // In identifier order, up to the budget: O(batch), not a sort of every pending model.
        for id in context.syncData.pending.inOrder {
            guard budget > 0 else { break }
            // The model and its entity are found once, for the checks and the save (each
            // looked them up, copying the model out of the store: three copies a save).
            // This process uploads only models it synchronizes (an extension or an older
            // version leaves the others pending for the app); a change of a model that is
            // gone makes no save.
            guard let pending = context.syncData.pending[id], pending.isAdoption == adoption,
                  let name = context.syncData.recordName(of: id),
                  let model = context.store.model(id), let entity = entities.named(model.entity),
                  entity.isSynchronized,
                  uploads(name, model: id, to: target, targetIsOwn: targetIsOwn, context: context)
            else { continue }
            // A record deleted and created again (SYNC-5, ID-4) is saved after its deletion.
            guard !(deletedSet?.contains(name) ?? deletedNames.contains(name)) else { continue }
            // The change tag the save is made on (none for an adoption, ADOPT-2), read once for
            // the save and for its unanswered send (SYNC-4).
            // Hashed once, for the look here and the note of the attempt below.
            let key = HashedRecordName(name)
            guard !upload.hasAttempted(key, adoption: adoption),
                  isUploadable(name, context: context),
                  case let changeTag = adoption ? nil : context.syncData.changeTag(of: name),
                  // ID-4: a record moving into (or out of) another user's share is saved
                  // whole in its new zone.
                  case let moves = (!targetIsOwn || !context.syncData.recordZones.isEmpty)
                      && movesZone(name, changeTag: changeTag, targetIsOwn: targetIsOwn,
                                   adoption: adoption, context: context),
                  let save = makeSave(of: id, model: model, entity: entity, name: name,
                                      zone: target,
                                      pending: moves ? wholeRecord(pending, of: entity) : pending,
                                      // A new record there: the old one's tag is not its own.
                                      changeTag: moves ? nil : changeTag,
                                      adoption: adoption,
                                      // (No record fetched, most of the time: the name is
                                      // not hashed against an empty map.)
                                      base: upload.overflow.bases.isEmpty
                                          ? nil : upload.overflow.bases[name],
                                      context: context)
            else { continue }
            if saves.isEmpty {
                // Sized at the first save for every change that may join it (at most the
                // budget): a request's maps are not grown, and their keys hashed again, as
                // they fill; a request that saves nothing allocates none.
                let room = min(context.syncData.pending.count, budget)
                saves.reserveCapacity(room)
                saved.reserveCapacity(room)
            }
            saves.append(consume save)
            // SYNC-4: remembered on disk until the answer arrives (a kill may lose it), with
            // the unanswered send it joins (nil: none).
            let earlier = adoption
                ? nil : context.syncData.markUnanswered(key, keys: pending.keys,
                    changeTag: changeTag)
            saved.append(UploadBatch.Save(name: name, model: id, keys: pending.keys,
                                          isInsert: pending.isInsert, earlierUnanswered: earlier))
            upload.noteAttempt(key, adoption: adoption)
            budget -= 1
        }
    }

    /// Whether a record uploads to `target` (its `zone(ofRecord:model:context:)` is `target`),
    /// told without building the app's zone for each record when no record is in another
    /// user's share (every record is then in the app's zone).
    private func uploads(
        _ name: String, model: ModelID?, to target: ZoneID, targetIsOwn: Bool, context: SDSContext
    ) -> Bool {
        if context.syncData.recordZones.isEmpty { return targetIsOwn }
        return zone(ofRecord: name, model: model, context: context) == target
    }

    /// The zone the next request uploads to: the app's own zone while it has changes this
    /// run did not try, then each other user's share in turn (never mixed in one request).
    private func uploadZone(_ upload: UploadRun, adoption: Bool, context: SDSContext) -> ZoneID {
        // No record in another user's share: every record is in the app's zone
        // (`zone(ofRecord:model:context:)`), without visiting the changes to find it out.
        guard !context.syncData.recordZones.isEmpty else { return appZone(context) }
        var zones: [ZoneID] = []
        if !adoption {
            for name in context.syncData.pendingDeletions.names
                where !upload.attempted.contains(name) {
                zones.append(zone(ofRecord: name, model: nil, context: context))
            }
            zones += staleCopyZones(upload, context: context)
        }
        let own = appZone(context)
        if zones.contains(own) { return own }
        for id in adoption
            ? context.syncData.pending.othersInOrder : context.syncData.pending.inOrder {
            guard let pending = context.syncData.pending[id], pending.isAdoption == adoption,
                  let name = context.syncData.recordName(of: id),
                  !upload.hasAttempted(name, adoption: adoption) else { continue }
            let zone = zone(ofRecord: name, model: id, context: context)
            // The own zone is the answer as soon as it is among them: no need to look further.
            if zone == own { return own }
            zones.append(zone)
        }
        if zones.isEmpty { return own }
        return zones.sorted()[0]
    }

    /// Whether a record may be uploaded now: not set aside after a rejection (SCHEMA-4).
    func isUploadable(_ name: String, context: SDSContext) -> Bool {
        // (An empty map is not asked: a lookup hashes the name even then.)
        context.syncData.rejected.isEmpty || context.syncData.rejected[name].isNil
    }

    /// ERR-6, ERR-7, LIM-5: the deletion of a previous parent waits until the change that
    /// moved a model away from it is uploaded: the moved model's record still names it as
    /// parent in iCloud, so deleting it first would delete that record too. While iCloud is
    /// full (ERR-6) or keeps rejecting the change (ERR-7, LIM-5) it goes on waiting.
    private func heldDeletions(context: SDSContext) -> Set<String> {
        var held: Set<String> = []
        // Without pending deletions nothing is held and nothing is traced.
        guard mechanisms.deletionsWaitForMoves, !context.syncData.pendingDeletions.isEmpty else {
            return held
        }
        // A plain insert has moved away from no parent.
        for id in context.syncData.pending.othersInOrder {
            guard let pending = context.syncData.pending[id], !pending.movedFrom.isEmpty,
                  let name = context.syncData.recordName(of: id) else { continue }
            let rejected = context.syncData.rejected[name] != nil
            var rules: [String] = []
            if rejected { rules = ["ERR-7", "LIM-5"] } else if quotaPausedUntil != nil {
                rules = ["ERR-6"]
            }
            for parent in pending.movedFrom where context.syncData.pendingDeletions[parent] != nil {
                held.insert(parent)
                effects.addTrace(detailed: context.isTracing,
                    kind: "deletion.waits-for-move",
                    details: [TraceField("record", .string(parent)),
                              TraceField("waitsFor", .string(name))],
                    rules: rules
                )
            }
        }
        return held
    }

    /// The record of a model with its changed keys, each large value in its field or in the
    /// overflow asset (BIG-2 .. BIG-5); `base` is the record as iCloud held it, when this
    /// synchronization fetched it (BIG-3). Nil when the record cannot be uploaded now.
    private func makeSave(
        of id: ModelID,
        model: Model,
        entity: SDSEntity,
        name: String,
        zone: ZoneID,
        pending: PendingChange,
        changeTag: String?,
        adoption: Bool,
        base: OverflowRunState.Base?,
        context: SDSContext
    ) -> RecordSave? {
        let save = plainSave(of: id, model: model, entity: entity, name: name, zone: zone,
                             pending: pending, changeTag: changeTag, context: context)
        return placeOverflow(consume save, of: id, model: model, entity: entity, pending: pending,
                             adoption: adoption, base: base, context: context)
    }

    /// The record of a model with its changed keys, every value in its own field; values that
    /// are empty are left out (CFG-3), so clearing a value reaches iCloud as the key removed.
    /// The record is made in the zone it goes to (not made in the app's zone, then copied out
    /// of the save to change its zone); the app's zone when none is given. `model` is the
    /// model `id` in the store, `entity` its entity (found by the caller, which needs them too);
    /// `changeTag` the tag the record is saved on: the record's as last seen from the server,
    /// nil for an adoption (ADOPT-2). `tracesClearedKeys`: false for a save only looked at, not
    /// sent (its trace would tell of an upload that does not happen).
    func plainSave(
        of id: ModelID,
        model: Model,
        entity: SDSEntity,
        name: String,
        zone: ZoneID? = nil,
        pending: PendingChange,
        changeTag: String?,
        context: SDSContext,
        tracesClearedKeys: Bool = true
    ) -> RecordSave {
        // The record's fields and parent are gathered here, and the record made of them at
        // the end: a record made first and filled, then returned in the save, was copied into
        // the save (or into the return's place: a dozen retains) and destroyed here. The
        // fields have room for every changed key at once (one allocation, not one per growth).
        var fields = SortedMap<String, CloudValue>(minimumCapacity: pending.keys.count)
        var parentName: String?
        // Sized once for the changed keys (not grown key by key).
        var changed: [String] = []
        changed.reserveCapacity(pending.keys.count)
        // The cleared keys, listed as the trace shows them, for a detailed trace only (else
        // whether there are any); a new record carries only the keys that have values, so its
        // cleared keys are not among the changed ones (not added, then searched and removed).
        var cleared: [TraceValue] = []
        var clearsKeys = false
        // The entity's attributes and relationships read in place (`attributes[offset]`): a
        // loop's element was a copy of the description (its name, its default value), made
        // and destroyed per key of every uploaded record.
        let attributes = entity.synchronizedAttributes
        for offset in attributes.indices where pending.hasKey(attributes[offset].name) {
            let key = attributes[offset].name
            if let value = model.values[key] {
                changed.append(key)
                fields[key] = RecordMapping.cloudValue(value, asset: attributes[offset].isAsset)
            } else {
                if !pending.isInsert { changed.append(key) }
                clearsKeys = true
                if context.isTracing { cleared.append(.string(key)) }
            }
        }
        let relationships = entity.synchronizedToOneRelationships
        for offset in relationships.indices where pending.hasKey(relationships[offset].name) {
            let key = relationships[offset].name
            if let target = model.toOne[key],
               let targetName = context.syncData.recordName(of: target) {
                changed.append(key)
                fields[key] = RecordMapping.reference(targetName, relationships[offset])
            } else {
                if !pending.isInsert { changed.append(key) }
                clearsKeys = true
                if context.isTracing { cleared.append(.string(key)) }
            }
        }
        if let parent = entity.parentRelationship, let target = model.toOne[parent.name] {
            parentName = context.syncData.recordName(of: target)
        }
        if tracesClearedKeys && clearsKeys {
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.keys-cleared",
                details: [TraceField("record", .string(name)), TraceField("keys", .list(cleared))],
                rules: ["CFG-3"]
            )
        }
        // Sorted in place, not copied into a sorted array.
        changed.sort()
        return RecordSave(
            record: CloudRecord(
                recordType: entity.name,
                recordName: name,
                zone: zone ?? appZone(context),
                fields: fields,
                parent: parentName,
                changeTag: changeTag
            ),
            changedKeys: changed
        )
    }
}
