import Kernel

extension CloudService {
    /// `CKModifyRecordsOperation` on one zone: request-level limit, then the zone, then every
    /// item (RecordBatch), committed only when the request applies.
    func modifyRecords(
        _ request: ModifyRecordsRequest, client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        precondition(request.scope == .privateDatabase, "shared writes were refused by permission")
        let maximum = configuration.maxItemsPerRequest
        guard request.itemCount <= maximum else {
            return CloudOutcome(
                response: .failure(CloudMessages.tooManyItems(request.itemCount, maximum: maximum)))
        }
        guard let zone = zoneStates[request.zone], zone.isLive else {
            // The next-upload throttle waits for an upload that reaches its records.
            let error = missingZoneError(request.zone)
            let names = request.saves.map(\.record.recordName) + request.deletes
            return CloudOutcome(
                response: .recordsModified(names.map { .failed(recordName: $0, error) }))
        }
        guard let accountState = accountStates[account] else {
            preconditionFailure("account ensured")
        }
        var batch = RecordBatch(
            request: request, client: client, now: now, service: self, zone: zone,
            account: accountState)
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
        accountStates[account]?.noteZoneChanged(request.zone)
        return CloudOutcome(
            response: .recordsModified(batch.results),
            pushes: pushTargets(account: account, originator: client.device),
            notes: batch.notes)
    }
}
