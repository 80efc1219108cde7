import Kernel

/// The container's public database ([CKDatabase.Scope] `public`, [CKContainer]
/// `publicCloudDatabase`; docs/CLOUDSIM.md *Public database*): one per container, the same
/// for every account, holding its default zone only. Any account reads and queries it, and
/// so does a device signed out; a signed-in account creates records there and changes or
/// deletes only the records it created. It has no change history: database and zone change
/// fetches, database and zone subscriptions are refused; query subscriptions fire.
///
/// The records live in `ZoneID.publicZone` and go through the private database's handlers
/// (fetches, queries, `RecordBatch`), so conflicts, limits, the schema and the notes are
/// theirs; this file checks access first and keeps the creators and subscriptions.
extension CloudService {
    /// Handles a request of the public database: outage, then the account's throttle when
    /// signed in, then the request's own checks. Writes need an account (`notAuthenticated`,
    /// `accountTemporarilyUnavailable`); reads do not.
    func handlePublic(
        _ request: CloudRequest, from client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        if let end = outageEnd, now < end {
            return Self.failure(CloudMessages.serviceUnavailable(retryAfter: end - now))
        }
        let reader = authenticationError(of: client) == nil ? client.account : nil
        if let reader {
            ensureAccount(reader)
            if let end = accountStates.peek(reader, { $0.throttleEnd }) ?? nil, now < end {
                return Self.failure(CloudMessages.requestRateLimited(retryAfter: end - now))
            }
        }
        if let refusal = Self.publicUnsupported(request) { return Self.failure(refusal) }
        if case .fetchRecords(_, let zone, let names) = request {
            guard zone.isDefaultZone else { return Self.failure(Self.publicZoneMissing(zone)) }
            return fetchRecords(scope: .privateDatabase, zone: .publicZone, names: names)
        }
        if case .fetchZone(_, let zone) = request {
            guard zone.isDefaultZone else { return Self.failure(Self.publicZoneMissing(zone)) }
            return CloudOutcome(response: .zoneFetched(.publicZone))
        }
        if case .queryRecords(_, let query, let resultsLimit, let cursor) = request {
            return queryPublic(query, resultsLimit: resultsLimit, cursor: cursor, reader: reader)
        }
        if let error = authenticationError(of: client) { return Self.failure(error) }
        guard let account = reader else { preconditionFailure("checked by authentication") }
        return writePublic(request, client: client, account: account, now: now)
    }

    /// The requests that need an account: record changes and the account's subscriptions.
    private func writePublic(
        _ request: CloudRequest, client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        switch request {
        case .modifyZones:
            return Self.failure(CloudMessages.publicZoneChange)
        case .modifyRecords(_, let zone, let saves, let deletes, let policy, let atomic):
            let request = ModifyRecordsRequest(
                scope: .publicDatabase, zone: zone, saves: saves, deletes: deletes,
                policy: policy, atomic: atomic)
            return modifyPublicRecords(request, client: client, account: account, now: now)
        case .saveQuerySubscription(_, let subscription):
            return savePublicSubscription(subscription, client: client, account: account)
        case .fetchSubscription(_, let id):
            return fetchPublicSubscription(id, client: client, account: account)
        case .fetchAllSubscriptions:
            publicDatabase.register(client.device, account: account)
            let all = publicDatabase.subscriptions(of: account).map(Subscription.query)
            return CloudOutcome(response: .subscriptionsFetched(all))
        case .deleteSubscription(_, let id):
            return deletePublicSubscription(id, client: client, account: account)
        default:
            preconditionFailure("\(request.kind) is answered before an account is needed")
        }
    }

    /// What the public database refuses whoever asks: it keeps no change history, so it has
    /// no change feeds and no database or zone subscriptions ([CKFetchDatabaseChangesOperation]:
    /// "Only private and shared databases support this operation").
    private static func publicUnsupported(_ request: CloudRequest) -> CloudError? {
        switch request {
        case .fetchDatabaseChanges:
            return CloudMessages.publicUnsupported("Database changes")
        case .fetchZoneChanges:
            return CloudMessages.publicUnsupported("Record zone changes")
        case .saveDatabaseSubscription, .saveNamedDatabaseSubscription:
            return CloudMessages.publicUnsupported("Database subscriptions")
        case .saveZoneSubscription:
            return CloudMessages.publicUnsupported("Record zone subscriptions")
        default:
            return nil
        }
    }

    /// One page of a query of the public database: its one zone, whoever asks.
    private func queryPublic(
        _ query: RecordQuery, resultsLimit: Int, cursor: QueryCursor?, reader: String?
    ) -> CloudOutcome {
        var query = cursor?.query ?? query
        if let zone = query.zone, !zone.isDefaultZone {
            return Self.failure(Self.publicZoneMissing(zone))
        }
        query.zone = .publicZone
        // The private database's query handler walks the one zone named; who asks only
        // matters to it when no zone is named.
        return queryRecords(
            scope: .privateDatabase, query: query, resultsLimit: resultsLimit, cursor: cursor,
            account: reader ?? ZoneID.publicDatabaseOwner)
    }

    static func failure(_ error: CloudError) -> CloudOutcome {
        CloudOutcome(response: .failure(error))
    }

    /// A custom zone named in the public database: it has none.
    static func publicZoneMissing(_ zone: ZoneID) -> CloudError {
        CloudMessages.zoneNotFound(zone)
    }
}

extension CloudMessages {
    /// Saving or deleting a zone of the public database (it holds its default zone only).
    static let publicZoneChange = CloudError(
        .invalidArguments,
        message: "The public database has only its default zone: zones cannot be saved or "
            + "deleted there")

    static func publicUnsupported(_ what: String) -> CloudError {
        CloudError(
            .invalidArguments, message: "\(what) are not supported in the public database")
    }

    static func notCreator(_ name: String) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "Record '\(name)' of the public database was created by another user")
    }
}
