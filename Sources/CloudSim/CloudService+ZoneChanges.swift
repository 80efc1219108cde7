extension CloudService {
    /// Page size when the client leaves it to the server (`resultsLimit` ≤ 0).
    static let defaultResultsLimit = 100

    /// The state of a zone as requests see it: a default zone is always live, also before its
    /// first record (the state is stored once something is written into it).
    func liveZoneState(_ zone: ZoneID) -> ZoneState? {
        if zoneStates.peek(zone, { $0.isLive }) == true { return zoneStates[zone] }
        return zone.isDefaultZone ? ZoneState.defaultZone(zone) : nil
    }

    /// `CKFetchRecordsOperation` takes at most `maxItemsPerRequest` record IDs (400 as
    /// reported): more → operation-level `limitExceeded`, nothing fetched.
    func fetchLimitError(_ names: [String]) -> CloudError? {
        let maximum = configuration.maxItemsPerRequest
        guard names.count > maximum else { return nil }
        return CloudMessages.tooManyItems(names.count, maximum: maximum)
    }

    /// The error a request on a zone that is not live meets: purged zones stay
    /// `userDeletedZone` until a device saves them again, a zone deleted by an encrypted-data
    /// reset is `zoneNotFound` with `userDidResetEncryptedData` ([CKError.Code]; docs/CLOUDSIM.md
    /// *Error shapes*).
    func missingZoneError(_ zone: ZoneID) -> CloudError {
        guard let state = zoneStates[zone] else { return CloudMessages.zoneNotFound(zone) }
        if state.isPurged { return CloudMessages.userDeletedZone }
        var error = CloudMessages.zoneNotFound(zone)
        error.userDidResetEncryptedData = state.wasResetForEncryptedData
        return error
    }

    /// One page of `CKFetchRecordZoneChangesOperation` on the owner's private database (the
    /// shared database: `fetchSharedZoneChanges`). `ownerEpoch` is the owner's token epoch,
    /// nil when the owner has no state yet.
    func fetchZoneChanges(
        scope: DatabaseScope, zone: ZoneID, token: ZoneChangeToken?, resultsLimit: Int,
        client: CloudClient, ownerEpoch: Int64?
    ) -> CloudOutcome {
        precondition(scope == .privateDatabase, "shared fetches have their own handler")
        if zone.isDefaultZone {
            // The default zone has no `fetchChanges` capability ([CKRecordZone] `default()`).
            return CloudOutcome(response: .failure(CloudMessages.defaultZoneHasNoChanges))
        }
        guard let epoch = ownerEpoch else {
            // A zone never created has no owner state yet: it is missing like any other.
            return CloudOutcome(response: .failure(missingZoneError(zone)))
        }
        let limit = resultsLimit > 0 ? resultsLimit : Self.defaultResultsLimit
        // `case .some`, not `token != nil`, which compares through `Equatable` (copying the
        // token into a pair of optionals).
        let hasToken = if case .some = token { true } else { false }
        let tombstones = hasToken || !configuration.tokenlessFetchOmitsDeletions
        // Answered from the zone where it is stored: copying the state out would retain
        // every reference it holds, on every fetch.
        let answer = zoneStates.peek(zone) { state -> CloudOutcome? in
            guard state.isLive else { return nil }
            var after: Int64 = 0
            if let token {
                let valid =
                    token.zone == zone && token.participant == nil
                    && token.incarnation == state.incarnation
                    && token.epoch == epoch && token.sequence <= state.sequence
                guard valid else {
                    // The fetch from scratch that follows brings no deletions (OBX-24).
                    state.forgoFirstTokenlessFetch(by: client.device)
                    return CloudOutcome(response: .failure(CloudMessages.changeTokenExpired))
                }
                after = token.sequence
            }
            // A device's first fetch of this life of the zone without a token reports the
            // deletions of the records it created (FORUM-813286; docs/CLOUDSIM.md row 30),
            // unless it follows a `changeTokenExpired` answer (`forgoFirstTokenlessFetch`).
            let creator =
                !tombstones && !hasToken && state.firstTokenlessFetch(by: client.device)
                ? client.device : nil
            let page = state.changes(
                after: after, limit: limit, includeTombstones: tombstones, creator: creator)
            let newToken = ZoneChangeToken(
                zone: zone, incarnation: state.incarnation, sequence: page.resumeSequence,
                epoch: epoch)
            return CloudOutcome(
                response: .zoneChanges(
                    records: page.records, deletions: page.deletions, token: newToken,
                    moreComing: page.moreComing))
        }
        if case let outcome?? = answer { return outcome }
        return CloudOutcome(response: .failure(missingZoneError(zone)))
    }

    /// A database token of `account` answered `changeTokenExpired`: the client fetches every
    /// zone again from scratch, and those fetches bring no deletions (OBX-24), also a device's
    /// first fetch of a zone its own upload created (docs/CLOUDSIM.md row 30).
    func forgoFirstTokenlessFetches(of account: String, by device: String) {
        for zone in zones(of: account) {
            _ = zoneStates.peek(zone) { $0.forgoFirstTokenlessFetch(by: device) }
        }
    }

    /// `CKFetchRecordsOperation`: found → `.saved`, missing → `unknownItem`, per name in
    /// request order; a zone that is not live fails every name with the zone's error.
    func fetchRecords(scope: DatabaseScope, zone: ZoneID, names: [String]) -> CloudOutcome {
        precondition(scope == .privateDatabase, "shared fetches have their own handler")
        if let error = fetchLimitError(names) { return CloudOutcome(response: .failure(error)) }
        let zoneError: CloudError?
        let state = liveZoneState(zone)
        if state == nil {
            zoneError = missingZoneError(zone)
        } else {
            zoneError = nil
        }
        let results: [ItemResult] = names.map { name in
            if let zoneError { return .failed(recordName: name, zoneError) }
            guard let record = state?.records[name]?.record else {
                return .failed(recordName: name, CloudMessages.unknownItem)
            }
            return .saved(record)
        }
        return CloudOutcome(response: .recordsFetched(results))
    }
}
