import Kernel

extension CloudService {
    /// `CKModifyRecordsOperation` on one zone: access (shared database), request-level limit,
    /// then the zone, then every item (RecordBatch), committed only when the request applies.
    ///
    /// Through the shared database the writer is a participant: the zone must be in its
    /// shared database, every item must stay within the shares it accepted read-write, and
    /// the owner's quota and rejections apply (CLOUDKIT.md 7).
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
        guard let zone = liveZoneState(request.zone) else {
            // The next-upload throttle waits for an upload that reaches its records.
            let error = missingZoneError(request.zone)
            let names = request.saves.map(\.record.recordName) + request.deletes
            return CloudOutcome(
                response: .recordsModified(names.map { .failed(recordName: $0, error) }))
        }
        ensureAccount(request.zone.owner)
        guard let accountState = accountStates[account],
            let ownerState = accountStates[request.zone.owner]
        else { preconditionFailure("accounts ensured") }
        var request = request
        // The default zone is never atomic ([CKRecordZone] `default()`): items fail one by one.
        if request.zone.isDefaultZone { request.atomic = false }
        var batch = RecordBatch(
            request: request, client: client, now: now, service: self, zone: zone,
            account: accountState, owner: ownerState, participant: participant)
        batch.run()
        accountStates[account] = batch.account
        guard batch.isApplied else {
            return CloudOutcome(response: .recordsModified(batch.results), notes: batch.notes)
        }
        zoneStates[request.zone] = batch.zone
        developmentSchema = batch.developmentSchema
        changeTagCounter = batch.changeTagCounter
        guard batch.changedZone else {
            return CloudOutcome(response: .recordsModified(batch.results), notes: batch.notes)
        }
        // The default zone is absent from database changes and database subscriptions
        // (`propagate` skips it); its query subscriptions fire like any zone's.
        let effects = propagate(zone: request.zone, originator: client.device, losses: batch.losses)
        let queryPushes = queryPushTargets(
            before: zone, after: batch.zone, originator: client.device)
        let pushes =
            queryPushes.isEmpty ? effects.pushes : Set(effects.pushes + queryPushes).sorted()
        return CloudOutcome(
            response: .recordsModified(batch.results), pushes: pushes,
            notes: batch.notes + effects.notes)
    }
}
