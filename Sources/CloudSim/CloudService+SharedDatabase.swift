extension CloudService {
    /// One page of `CKFetchRecordZoneChangesOperation` on the shared database: the
    /// participant's own view of the owner zone (only what its accepted shares cover), with
    /// tokens of its own. A zone not in its shared database answers `zoneNotFound`.
    func fetchSharedZoneChanges(
        zone: ZoneID, token: ZoneChangeToken?, resultsLimit: Int, client: CloudClient,
        account: String
    ) -> CloudOutcome {
        if let refusal = sharedZoneRefusal(
            zone, client: client, account: account, error: CloudMessages.zoneNotFound(zone))
        {
            return CloudOutcome(response: .failure(refusal.error), notes: [refusal.note])
        }
        guard let state = accountStates[account], let view = state.sharedViews[zone],
            let zoneState = zoneStates[zone]
        else { preconditionFailure("a live view has its account and zone") }
        var after: Int64 = 0
        if let token {
            let valid =
                token.zone == zone && token.participant == account
                && token.incarnation == view.life && token.epoch == state.tokenEpoch
                && token.sequence <= view.sequence
            guard valid else {
                return CloudOutcome(response: .failure(CloudMessages.changeTokenExpired))
            }
            after = token.sequence
        }
        let limit = resultsLimit > 0 ? resultsLimit : Self.defaultResultsLimit
        let page = view.changes(
            after: after, limit: limit, includeTombstones: token != nil, in: zoneState)
        let newToken = ZoneChangeToken(
            zone: zone, participant: account, incarnation: view.life,
            sequence: page.resumeSequence, epoch: state.tokenEpoch)
        return CloudOutcome(
            response: .zoneChanges(
                records: page.records, deletions: page.deletions, token: newToken,
                moreComing: page.moreComing))
    }

    /// `CKFetchRecordsOperation` on the shared database: a record the participant can see
    /// comes back; any other name is `unknownItem`, whether it exists or not (nothing leaks;
    /// an existing one is noted as refused). A zone not in its shared database fails every
    /// name with `zoneNotFound`.
    func fetchSharedRecords(
        zone: ZoneID, names: [String], client: CloudClient, account: String
    ) -> CloudOutcome {
        if let refusal = sharedZoneRefusal(
            zone, client: client, account: account, error: CloudMessages.zoneNotFound(zone))
        {
            let results = names.map { ItemResult.failed(recordName: $0, refusal.error) }
            return CloudOutcome(response: .recordsFetched(results), notes: [refusal.note])
        }
        if let error = fetchLimitError(names) { return CloudOutcome(response: .failure(error)) }
        guard let view = accountStates[account]?.sharedViews[zone], let zoneState = zoneStates[zone]
        else { preconditionFailure("a live view has its zone") }
        let visible = Set(view.visibleNames)
        var notes: [CloudNote] = []
        let results: [ItemResult] = names.map { name in
            guard let stored = zoneState.records[name] else {
                return .failed(recordName: name, CloudMessages.unknownItem)
            }
            guard visible.contains(name) else {
                notes.append(
                    CloudNotes.accessRefused(
                        client: client, zone: zone, reason: .outsideShare, recordName: name))
                return .failed(recordName: name, CloudMessages.unknownItem)
            }
            return .saved(stored.record)
        }
        return CloudOutcome(response: .recordsFetched(results), notes: notes)
    }
}
