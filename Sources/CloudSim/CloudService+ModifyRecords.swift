import Kernel

extension CloudService {
    /// `CKModifyRecordsOperation` on one zone: access (shared database), request-level limit,
    /// then the zone, then every item (RecordBatch), committed only when the request applies.
    ///
    /// Through the shared database the writer is a participant: the zone must be in its
    /// shared database, every item must stay within the shares it accepted read-write, and
    /// the owner's quota and rejections apply ([CKError] `quotaExceeded`: the owner's storage;
    /// docs/CLOUDSIM.md row 38).
    func modifyRecords(
        _ request: ModifyRecordsRequest, client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        let participant = request.scope == .sharedDatabase ? account : nil
        if participant != nil,
            let refusal = sharedZoneRefusal(
                request.zone, client: client, account: account,
                error: CloudMessages.notSharedWithAccount(request.zone))
        {
            return CloudOutcome(response: .failure(refusal.error), notes: [refusal.note])
        }
        let maximum = configuration.maxItemsPerRequest
        guard request.itemCount <= maximum else {
            return CloudOutcome(
                response: .failure(CloudMessages.tooManyItems(request.itemCount, maximum: maximum)))
        }
        // Each save's fields read where the request holds them: `reduce` copied every save
        // (its record's references retained and released) to size its fields.
        var bytes = 0
        for index in request.saves.indices {
            bytes += CloudRecord.sizeBytes(of: request.saves[index].record.fields)
        }
        let maximumBytes = configuration.maxRequestSizeBytes
        guard bytes <= maximumBytes else {
            return CloudOutcome(
                response: .failure(CloudMessages.requestTooLarge(bytes, maximum: maximumBytes)))
        }
        if participant == nil, request.saves.contains(where: { $0.record.zone != request.zone }) {
            return modifyRecordsAcrossZones(request, client: client, account: account, now: now)
        }
        return modifyRecordsInOneZone(request, client: client, account: account, now: now)
    }

    /// One `CKModifyRecordsOperation` spanning several zones of the private database
    /// (CKSyncEngine sends such batches): one part per zone, in the order the zones first
    /// appear (the request's zone, holding the deletes, first), each part judged and applied
    /// on its own and atomic on its own when asked ([CKModifyRecordsOperation] `isAtomic`:
    /// "within each zone"). The results come back in request order.
    private func modifyRecordsAcrossZones(
        _ request: ModifyRecordsRequest, client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        var zones = [request.zone]
        for save in request.saves where !zones.contains(save.record.zone) {
            zones.append(save.record.zone)
        }
        var results = [ItemResult?](repeating: nil, count: request.itemCount)
        var notes: [CloudNote] = []
        var pushes = Set<String>()
        for zone in zones {
            let indexes = request.saves.indices.filter { request.saves[$0].record.zone == zone }
            var part = request
            part.zone = zone
            part.saves = indexes.map { request.saves[$0] }
            part.deletes = zone == request.zone ? request.deletes : []
            let outcome = modifyRecordsInOneZone(part, client: client, account: account, now: now)
            notes += outcome.notes
            pushes.formUnion(outcome.pushes)
            guard case .recordsModified(let items) = outcome.response else {
                preconditionFailure("one zone of a private request answers per item")
            }
            precondition(items.count == part.itemCount, "one result per item")
            for (position, index) in indexes.enumerated() { results[index] = items[position] }
            for position in part.deletes.indices {
                results[request.saves.count + position] = items[indexes.count + position]
            }
        }
        let answered = results.compactMap { $0 }
        precondition(answered.count == request.itemCount, "every item answered by its zone")
        return CloudOutcome(
            response: .recordsModified(answered), pushes: pushes.sorted(), notes: notes)
    }

    /// `modifyRecords` into one zone: the zone, then every item (RecordBatch).
    private func modifyRecordsInOneZone(
        _ request: ModifyRecordsRequest, client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        let participant = request.scope == .sharedDatabase ? account : nil
        // The zone's place in `zoneStates`, found once for the check, the take and the put
        // back, so that its owner and name are hashed once a request, not four times.
        // Nothing is inserted into `zoneStates` until the put back, so the index stays valid.
        let storedIndex = zoneStates.index(forKey: request.zone).flatMap { index in
            zoneStates.peek(at: index) { $0.isLive } ? index : nil
        }
        // Held by this binding only (no optional left holding it), so the batch below holds
        // the only reference to the zone's records and log.
        let zone: ZoneState
        if let storedIndex {
            var state = ZoneState(id: request.zone)
            swap(&state, &zoneStates.values[storedIndex])
            zone = state
        } else if let made = liveZoneState(request.zone) {
            zone = made
        } else {
            // The next-upload throttle waits for an upload that reaches its records.
            let error = missingZoneError(request.zone)
            let names = request.saves.map(\.record.recordName) + request.deletes
            return CloudOutcome(
                response: .recordsModified(names.map { .failed(recordName: $0, error) }))
        }
        ensureAccount(request.zone.owner)
        // What the batch needs of the two states, read where they are stored (no copy).
        guard let throttles = accountStates.peek(account, { state in
                (partial: state.partialThrottle, delete: state.deleteThrottle)
            }),
            let owner = accountStates.peek(request.zone.owner, { state in
                (quotaFull: state.isQuotaFull, rejectedRecords: state.rejectedRecords,
                 hasQueryPushes: !(state.querySubscriptions.isEmpty
                    && state.zoneSubscriptions.isEmpty) && !state.queryPushDevices.isEmpty)
            })
        else { preconditionFailure("accounts ensured") }
        // The batch's own copy, moved into it: `finish` reads the batch's.
        var request = request
        // The default zone is never atomic ([CKRecordZone] `default()`): items fail one by one.
        if request.zone.isDefaultZone { request.atomic = false }
        // The zone as it was, only when a query subscription must compare with it: any other
        // reference would make the batch copy the zone's records and log on its first write.
        let before = owner.hasQueryPushes ? zone : nil
        var batch = RecordBatch(
            request: consume request, client: client, now: now, service: self,
            zone: consume zone,
            throttles: throttles,
            owner: (quotaFull: owner.quotaFull, rejectedRecords: owner.rejectedRecords),
            participant: participant)
        batch.run()
        return finish(&batch, storedIndex: storedIndex, before: before, client: client,
            account: account)
    }

    /// After the batch ran: the throttles it used up, the zone put back, and, when it changed
    /// the zone, the pushes and notes its change gives.
    private func finish(
        _ batch: inout RecordBatch,
        storedIndex: Dictionary<ZoneID, ZoneState>.Index?, before: ZoneState?,
        client: CloudClient, account: String
    ) -> CloudOutcome {
        // The request consumed the throttles of the next upload and the next deletes it
        // met, applied or not.
        let zone = batch.request.zone
        let hasSaves = !batch.request.saves.isEmpty
        let hasDeletes = !batch.request.deletes.isEmpty
        if hasSaves || hasDeletes {
            accountStates.change(account) { state in
                if hasSaves { state.partialThrottle = nil }
                if hasDeletes { state.deleteThrottle = nil }
            }
        }
        // Read before the zone goes back (the batch's is then a stand-in): a change to a zone
        // without shares need not look the zone up again to find that out.
        let hasShares = batch.zone.hasShares
        // Put back also when not applied (only applying changes the batch's zone); a default
        // zone not stored before is stored only when applied, as before.
        if let storedIndex {
            if case .none = before {
                // Moved back, not copied (a copy retains every reference the state holds,
                // then releases them with the batch): only a query subscription's comparison
                // (`before` set) reads the batch's zone after this.
                swap(&zoneStates.values[storedIndex], &batch.zone)
            } else {
                zoneStates.values[storedIndex] = batch.zone
            }
        } else if batch.isApplied {
            zoneStates[zone] = batch.zone
        }
        guard batch.isApplied else {
            return CloudOutcome(response: .recordsModified(batch.results), notes: batch.notes)
        }
        developmentSchema = batch.developmentSchema
        changeTagCounter = batch.changeTagCounter
        guard batch.changedZone else {
            return CloudOutcome(response: .recordsModified(batch.results), notes: batch.notes)
        }
        // The default zone is absent from database changes and database subscriptions
        // (`propagate` skips it); its query subscriptions fire like any zone's.
        let effects = propagate(
            zone: zone, originator: client.device, losses: batch.losses,
            liveWithShares: hasShares)
        // A modify request never adds query subscriptions or their devices (`before` is nil
        // exactly when `queryPushTargets` would find none).
        let query = before.map {
            queryPushTargets(before: $0, after: batch.zone, originator: client.device)
        } ?? QueryPushes()
        let pushes = query.targets.isEmpty
            ? effects.pushes : AccountState.merged(effects.pushes, query.targets)
        // Most changes leave no sharing note: the batch's notes as they are, not copied into
        // a new array.
        var notes = effects.notes.isEmpty ? batch.notes : batch.notes + effects.notes
        if !query.firedOnce.isEmpty {
            notes += deleteFiredOnce(
                query.firedOnce, owner: zone.owner, device: client.device)
        }
        return CloudOutcome(
            response: .recordsModified(batch.results), pushes: pushes, notes: notes)
    }
}

extension CloudService {
    /// `liveZoneState(_:)`, moved out of `zoneStates` (an empty stand-in keeps its place, so
    /// the dictionary is not rehashed) so the caller changes the only copy; the caller puts
    /// it back. A default zone not stored yet is made as `liveZoneState` makes it.
    func takeLiveZoneState(_ zone: ZoneID) -> ZoneState? {
        guard zoneStates.peek(zone, { $0.isLive }) == true else { return liveZoneState(zone) }
        var state = ZoneState(id: zone)
        swap(&state, &zoneStates[zone]!)
        return state
    }
}
