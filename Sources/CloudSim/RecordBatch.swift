import Kernel

/// One `modifyRecords` request worked out on copies of the zone and schema, so that an atomic
/// request that fails leaves the cloud untouched: the service commits the copies only when
/// `isApplied`.
///
/// Order of the per-save checks: duplicate name, access (shared database), next-upload
/// throttle, rejection, zone, names, save policy, record type, list types, size, schema,
/// quota. Then, across the whole request: parent references, share structure and the
/// participant's access to where each record ends up; then atomicity.
struct RecordBatch {
    let request: ModifyRecordsRequest
    let client: CloudClient
    let now: SimTime
    let configuration: CloudConfiguration
    let productionSchema: Schema
    /// The zone owner's quota and rejected records: they apply to every write into the zone,
    /// also through a participant's shared database ([CKError] `quotaExceeded`, ERR-5).
    let ownerQuotaFull: Bool
    let ownerRejectedRecords: [String: CloudErrorCode]
    /// The writer's scripted throttles of its next upload and its next deletes: a request
    /// with saves, respectively deletes, consumes them (the service clears them in the
    /// account's state, applied or not).
    ///
    /// The throttles alone, not copies of the writer's and the owner's whole states: the
    /// service would store the writer's back, and the owner's database feed, noted right
    /// after, would then be copied (the states share it) on every stored change.
    let partialThrottle: PartialThrottle?
    let deleteThrottle: PartialThrottle?
    /// The client's account when it is not the zone's owner (a participant's), which a saved
    /// record keeps as its creator or last modifier; nil for the owner's saves, most of them.
    let otherAccount: String?
    /// Sharing context; nil when the zone has no share and the request touches none.
    var sharing: BatchSharing?

    /// Working copies.
    var zone: ZoneState
    var developmentSchema: Schema
    var changeTagCounter: Int64
    /// The development schema with every planned write adopted in request order (by
    /// `planSaves`), while no planned write has failed since: applying the writes then
    /// adopts the same saves in the same order, so `apply` takes this schema instead of
    /// adopting each save a second time. Nil once the settle failed a write.
    var plannedSchema: Schema? = nil

    /// Outputs.
    var results: [ItemResult] = []
    var notes: [CloudNote] = []
    var isApplied = false
    /// Whether the zone's contents changed (something was saved or deleted).
    var changedZone = false
    /// Participants who lost access by this request and why (a participant leaving), for the
    /// refresh of the shared views. Made with `init()`: the literal `[:]` was built from an
    /// empty list of pairs, on every request.
    var losses: [String: AccessLoss] = Dictionary()

    /// Decides every item, then applies the request unless it is atomic and an item failed.
    mutating func run() {
        let duplicates = duplicateItems()
        var writes = PlannedWrites()
        var verdicts = planSaves(duplicateSaves: duplicates.saves, writes: &writes)
        var deleteErrors: [CloudError?] = []
        for (index, name) in request.deletes.enumerated() {
            if duplicates.deletes.contains(index) {
                deleteErrors.append(CloudMessages.duplicate(name))
            } else if let error = deleteAccessError(name, index: index) {
                deleteErrors.append(error)
            } else if let deleteThrottle, index < deleteThrottle.recordCount {
                // A per-item rate limit with its retry-after ([CKError] `requestRateLimited`,
                // `retryAfterSeconds`; docs/CLOUDSIM.md row 46).
                deleteErrors.append(
                    CloudMessages.requestRateLimited(retryAfter: deleteThrottle.retryAfter))
            } else if configuration.missingDeletes == .unknownItem, !zone.records.contains(name) {
                // Apple leaves open whether this succeeds (docs/CLOUDSIM.md).
                deleteErrors.append(CloudMessages.deleteOfMissingRecord(name))
            } else {
                deleteErrors.append(nil)
            }
        }
        let failedWrites = settle(
            &verdicts, deleteErrors: deleteErrors, plannedParent: writes.withParent)
        if failedWrites > 0 { plannedSchema = nil }
        // A verdict either writes or fails: the failures are the verdicts that do not write
        // (counted as they were decided: matching each verdict's case copied it; and
        // `$0.error != nil` copied each error out to compare it).
        let failedCount =
            verdicts.count - (writes.count - failedWrites)
            + deleteErrors.count { error in
                if case .some = error { return true }
                return false
            }
        if request.atomic && failedCount > 0 {
            results = Self.atomicFailure(request, verdicts: verdicts, deleteErrors: deleteErrors)
            notes.append(
                CloudNotes.batchRolledBack(
                    zone: request.zone, failedCount: failedCount, device: client.device))
        } else {
            apply(consume verdicts, deleteErrors: deleteErrors)
            isApplied = true
        }
        precondition(results.count == request.itemCount, "one result per item")
    }

    /// What `plan` counts of the writes it plans, for `run` and `settle`.
    struct PlannedWrites {
        var count = 0
        /// Whether a planned record has a parent (whose reference `settle` checks).
        var withParent = false
    }

    /// Indexes of saves and deletes whose record name already came earlier in the request.
    private func duplicateItems() -> (saves: Set<Int>, deletes: Set<Int>) {
        // One item has no earlier one (most requests of a sweep): no name hashed.
        guard request.itemCount > 1 else { return ([], []) }
        // Up to a few dozen items, their hashes are compared pairwise on the stack: cheaper
        // than making a set and inserting every name.
        if request.itemCount <= 64 { return smallDuplicateItems() }
        // Names filed by `RecordNameHash` (`String`'s SipHash cost most of each insert), each
        // save's name read where the request holds it (an enumeration copied every save).
        var seen = Set<HashedRecordName>()
        var saves = Set<Int>()
        var deletes = Set<Int>()
        for index in request.saves.indices
        where !seen.insert(HashedRecordName(request.saves[index].record.recordName)).inserted {
            saves.insert(index)
        }
        for (index, name) in request.deletes.enumerated()
        where !seen.insert(HashedRecordName(name)).inserted {
            deletes.insert(index)
        }
        return (saves, deletes)
    }

    /// `duplicateItems` of a request of a few items, each name compared with the earlier ones.
    /// The names are read where the request holds them: an array of them, saves' then
    /// deletes', cost more to build than the comparisons. Each is hashed once
    /// (`RecordNameHash`, equal for equal names), on the stack, and compared only with the
    /// names of its hash: a comparison of two different names of one length went through
    /// the string's general comparison.
    private func smallDuplicateItems() -> (saves: Set<Int>, deletes: Set<Int>) {
        var saves = Set<Int>()
        var deletes = Set<Int>()
        let saveCount = request.saves.count
        withUnsafeTemporaryAllocation(of: Int.self, capacity: request.itemCount) { hashes in
            for index in 0..<request.itemCount {
                let hash = RecordNameHash.hash(itemName(at: index, saveCount: saveCount))
                hashes.initializeElement(at: index, to: hash)
                guard (0..<index).contains(where: { earlier in
                    hashes[earlier] == hash
                        && itemName(at: earlier, saveCount: saveCount)
                            == itemName(at: index, saveCount: saveCount)
                })
                else { continue }
                if index < saveCount {
                    saves.insert(index)
                } else {
                    deletes.insert(index - saveCount)
                }
            }
        }
        return (saves, deletes)
    }

    /// The record name of the request's item at `index`: its saves, then its deletes.
    @inline(__always)
    private func itemName(at index: Int, saveCount: Int) -> String {
        index < saveCount
            ? request.saves[index].record.recordName : request.deletes[index - saveCount]
    }

    /// Every save's verdict, ignoring parent references; consumes the next-upload throttle.
    private mutating func planSaves(
        duplicateSaves: Set<Int>, writes: inout PlannedWrites
    ) -> [SaveVerdict] {
        var planningSchema = developmentSchema
        var verdicts: [SaveVerdict] = []
        // One verdict a save: sized once, not grown a few times a request.
        verdicts.reserveCapacity(request.saves.count)
        // Only a participant's saves have an access check (which notes its refusals): after
        // the duplicate check, as in `verdict`.
        let checksAccess = sharing?.participant != nil
        // Each save passed as a copy of its bits in `slot`, which retains nothing and is
        // never destroyed (the request holds the save meanwhile): passed from the buffer, the
        // array or a borrowing parameter it was copied, every reference retained, and
        // destroyed after its plan.
        let size = MemoryLayout<RecordSave>.size
        request.saves.withUnsafeBufferPointer { saves in
            withUnsafeTemporaryAllocation(of: RecordSave.self, capacity: 1) { place in
                let slot = place.baseAddress.unsafelyUnwrapped
                for index in saves.indices {
                    let accessError =
                        checksAccess && !duplicateSaves.contains(index)
                        ? saveAccessError(saves[index]) : nil
                    UnsafeMutableRawPointer(slot).copyMemory(
                        from: saves.baseAddress.unsafelyUnwrapped + index, byteCount: size)
                    let save = slot.move()
                    verdicts.append(
                        verdict(
                            save, index: index, duplicateSaves: duplicateSaves,
                            accessError: accessError, schema: &planningSchema,
                            writes: &writes))
                    // Back in the slot, never deinitialized: its references were not retained.
                    slot.initialize(to: consume save)
                }
            }
        }
        plannedSchema = planningSchema
        return verdicts
    }

    /// One save's verdict in `planSaves`: the per-save checks in order, then the plan.
    /// `save` must stay borrowed here and in `plan`: `planSaves` passes a copy of its bits
    /// that it never destroys, which a consuming parameter would release.
    private func verdict(
        _ save: RecordSave, index: Int, duplicateSaves: Set<Int>, accessError: CloudError?,
        schema: inout Schema, writes: inout PlannedWrites
    ) -> SaveVerdict {
        let name = save.record.recordName
        if duplicateSaves.contains(index) { return .fail(CloudMessages.duplicate(name)) }
        if let accessError { return .fail(accessError) }
        if let throttle = partialThrottle, index < throttle.recordCount {
            return .fail(CloudMessages.requestRateLimited(retryAfter: throttle.retryAfter))
        }
        // (The emptiness check spares hashing the name where there is nothing to find.)
        if !ownerRejectedRecords.isEmpty, let code = ownerRejectedRecords[name] {
            return .fail(CloudMessages.rejected(name, code: code))
        }
        // The plan adopts a written save into the planning schema itself.
        return plan(save, index: index, schema: &schema, writes: &writes)
    }

    /// The verdict on one save against the server's copy; a save to write is adopted into
    /// `schema` (the schema later saves of the request are planned against).
    private func plan(
        _ save: RecordSave, index: Int, schema: inout Schema, writes: inout PlannedWrites
    ) -> SaveVerdict {
        let client = save.record
        guard client.zone == request.zone else {
            return .fail(CloudMessages.wrongZone(client.recordName))
        }
        if let error = RecordValidation.nameError(of: save) { return .fail(error) }
        // Hashed once for the lookups here and the write (`PlannedSave.nameHash`).
        let nameHash = RecordNameHash.hash(client.recordName)
        // The record alone, not wrapped with its sequence first (`records[name]?.record`).
        let server = zone.records.position(of: client.recordName, nameHash: nameHash).map {
            zone.records.record(at: $0)
        }
        // Shares are always saved with ifServerRecordUnchanged
        // ([CKModifyRecordsOperation.RecordSavePolicy]; docs/CLOUDSIM.md row 21).
        let policy = client.isShare ? SavePolicy.ifServerRecordUnchanged : request.policy
        if let error = policyError(save, server: server, policy: policy) { return .fail(error) }
        if let server, server.recordType != client.recordType {
            return .fail(
                CloudMessages.recordTypeChange(
                    client.recordName, from: server.recordType, to: client.recordType))
        }
        // Paired before the merge (which changes nothing and cannot fail), so that the
        // server's record is moved into the plan, not copied for it.
        let share: String?
        switch pairing(of: save, server: server, index: index) {
        case .failure(let error): return .fail(error)
        case .success(let paired): share = paired
        }
        // The plan made here and changed in place by the merge: a plan returned from it (or a
        // record built in it) was copied on the way out and the original destroyed.
        var planned = PlannedSave(
            record: server
                ?? CloudRecord(
                    recordType: client.recordType, recordName: client.recordName,
                    zone: request.zone),
            writtenKeys: [], previous: consume server, isRecreation: false, policy: policy,
            nameHash: nameHash)
        merge(save, into: &planned)
        planned.record.share = share
        for key in planned.writtenKeys where planned.record.fields[key]?.isHomogeneous == false {
            return .fail(CloudMessages.mixedList(key))
        }
        if planned.record.recordSizeBytes > configuration.maxRecordSizeBytes {
            return .fail(CloudMessages.recordTooLarge)
        }
        if !client.isShare, let error = schemaError(of: planned, development: schema) {
            return .fail(error)
        }
        if ownerQuotaFull {
            return .fail(
                sharing?.participant == nil
                    ? CloudMessages.quotaExceeded : CloudMessages.ownerQuotaExceeded)
        }
        schema.adopt(planned, environment: configuration.environment)
        writes.count += 1
        if case .some = planned.record.parent { writes.withParent = true }
        // Moved into the verdict: returning it copied the planned save (two records).
        return .write(consume planned)
    }

    /// The change-tag check of `ifServerRecordUnchanged` (docs/CLOUDSIM.md row 18); the other
    /// policies never check.
    private func policyError(
        _ save: RecordSave, server: CloudRecord?, policy: SavePolicy
    ) -> CloudError? {
        // `case .none`, here and below: `server == nil` compares through `Equatable`,
        // copying the server's record, and so does a switch over a tuple holding it.
        if !configuration.recreatesDeletedRecords, case .none = server,
            save.record.changeTag != nil
        {
            // A test variant without the re-creation path (docs/CLOUDSIM.md row 20).
            return CloudMessages.unknownItem
        }
        guard policy == .ifServerRecordUnchanged else { return nil }
        guard let server else {
            return save.record.changeTag == nil ? nil : CloudMessages.unknownItem
        }
        guard let tag = save.record.changeTag else {
            return CloudMessages.insertCollision(server, client: save.record)
        }
        guard tag != server.changeTag else { return nil }
        let ancestor = zone.version(of: server.recordName, changeTag: tag)
        return CloudMessages.oplock(server, client: save.record, ancestor: ancestor)
    }

    /// The server record after the save, made in `planned` (which holds the server's record,
    /// or a new one, and its `previous`): edited keys (all sent keys under `allKeys`) written
    /// over the server's; a written key without a value removes it; the parent comes from
    /// the client.
    private func merge(_ save: RecordSave, into planned: inout PlannedSave) {
        // Sorted and unique, as a set sorted would be: the keys passed the name check, so
        // they are ASCII and equal only when their bytes are (no set hashed per save).
        var writtenKeys = save.changedKeys
        if planned.policy == .allKeys {
            writtenKeys += save.record.fields.keys
            writtenKeys.sort()
            writtenKeys = Self.withoutRepeats(writtenKeys)
        } else if !Self.isStrictlySorted(writtenKeys) {
            // Engines mostly send their changed keys sorted and unique already: those are
            // kept as sent, sharing the request's array (the sort makes a copy of it and the
            // pass without repeats another).
            writtenKeys.sort()
            writtenKeys = Self.withoutRepeats(writtenKeys)
        }
        // The client's record is read where the save holds it (a binding copied the record,
        // every reference retained and released, on every save).
        if Self.sortedKeys(of: save.record.fields, areIn: writtenKeys)
            && Self.sortedKeys(of: planned.record.fields, areIn: writtenKeys)
        {
            // Every key either side holds is written: the result is the client's fields, so
            // it shares their storage instead of building a copy key by key (allocations and
            // a rehash, even for a new record's two keys).
            planned.record.fields = save.record.fields
        } else {
            for key in writtenKeys { planned.record.fields[key] = save.record.fields[key] }
        }
        planned.writtenKeys = writtenKeys
        planned.record.parent = save.record.isShare ? nil : save.record.parent
        if save.record.isShare {
            // Participants are the server's: a save never edits them (`.share` requests do).
            planned.record.participants =
                planned.previous?.participants ?? [ShareParticipant.owner(zone.id.owner)]
            planned.record.publicPermission = planned.previous?.publicPermission ?? .none
        }
        if case .none = planned.previous {
            // (not `== nil`: see policyError)
            if case .some = save.record.changeTag {
                // A tag the server gave: the record was deleted, alone (its tombstone) or with
                // its zone (none: a zone created again starts without them).
                planned.isRecreation = true
            } else {
                planned.isCreationOverTombstone =
                    zone.tombstone(named: save.record.recordName, nameHash: planned.nameHash)
                    != nil
            }
        }
    }

    /// Whether every key comes before the next one: sorted, without repeats.
    private static func isStrictlySorted(_ keys: [String]) -> Bool {
        guard keys.count > 1 else { return true }
        for index in 1..<keys.count where !(keys[index - 1] < keys[index]) { return false }
        return true
    }

    /// A sorted array without its repeated elements.
    private static func withoutRepeats(_ sorted: [String]) -> [String] {
        guard sorted.count > 1 else { return sorted }
        var unique: [String] = []
        unique.reserveCapacity(sorted.count)
        for key in sorted where unique.last != key { unique.append(key) }
        return unique
    }

    /// Whether every key of a map (sorted) is among `sorted`: one walk of both.
    private static func sortedKeys(
        of fields: SortedMap<String, CloudValue>, areIn sorted: [String]
    ) -> Bool {
        var position = 0
        return fields.allKeysSatisfy { key in
            while position < sorted.count, sorted[position] < key { position += 1 }
            guard position < sorted.count, sorted[position] == key else { return false }
            position += 1
            return true
        }
    }

    /// SCHEMA-2: development fixes a field's type on its first save with a value; production
    /// rejects types and fields it lacks.
    private func schemaError(of plan: PlannedSave, development: Schema) -> CloudError? {
        let recordType = plan.record.recordType
        let production = configuration.environment == .production
        if production && !productionSchema.hasType(recordType) {
            return CloudMessages.productionType(recordType)
        }
        let schema = production ? productionSchema : development
        for key in plan.writtenKeys {
            guard let value = plan.record.fields[key] else { continue }
            guard let defined = schema.fieldType(key, of: recordType) else {
                if production { return CloudMessages.productionField(key, recordType: recordType) }
                continue
            }
            guard !value.fits(schemaType: defined) else { continue }
            if production { return CloudMessages.productionField(key, recordType: recordType) }
            return CloudMessages.typeMismatch(
                key: key, recordType: recordType, sent: value.schemaTypeName, defined: defined)
        }
        return nil
    }

    /// Results of an atomic request with a failure: real errors stay, the innocent items get
    /// `batchRequestFailed`.
    private static func atomicFailure(
        _ request: ModifyRecordsRequest, verdicts: [SaveVerdict], deleteErrors: [CloudError?]
    ) -> [ItemResult] {
        var results: [ItemResult] = []
        for (save, verdict) in zip(request.saves, verdicts) {
            let name = save.record.recordName
            results.append(
                .failed(recordName: name, verdict.error ?? CloudMessages.batchSaveFailed(name)))
        }
        for (name, error) in zip(request.deletes, deleteErrors) {
            results.append(
                .failed(recordName: name, error ?? CloudMessages.batchDeleteFailed(name)))
        }
        return results
    }
}

extension RecordBatch {
    /// `participant` is the writing account when it writes through its shared database into
    /// another owner's zone, nil when the owner writes into its private database.
    ///
    /// In an extension, so that the batch keeps its memberwise initializer: an initializer
    /// written in the struct would build the batch in a temporary and copy it out (as
    /// `CloudRecord`'s would), on every request.
    init(
        request: ModifyRecordsRequest, client: CloudClient, now: SimTime, service: CloudService,
        zone: ZoneState, throttles: (partial: PartialThrottle?, delete: PartialThrottle?),
        owner: (quotaFull: Bool, rejectedRecords: [String: CloudErrorCode]),
        participant: String?
    ) {
        self.init(
            request: request, client: client, now: now, configuration: service.configuration,
            productionSchema: service.productionSchema, ownerQuotaFull: owner.quotaFull,
            ownerRejectedRecords: owner.rejectedRecords, partialThrottle: throttles.partial,
            deleteThrottle: throttles.delete,
            otherAccount: client.account == request.zone.owner ? nil : client.account,
            sharing: BatchSharing.make(request: request, zone: zone, participant: participant),
            zone: zone, developmentSchema: service.developmentSchema,
            changeTagCounter: service.changeTagCounter)
    }
}
