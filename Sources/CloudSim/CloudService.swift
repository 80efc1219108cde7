import Kernel

/// The simulated CloudKit container: every account's databases, zones and records.
///
/// A pure state machine: the world hands it a request at the moment the request arrives and
/// gets back the answer, the pushes to send and notes for the trace. Latency, push delivery
/// and drops are the world's business, not the cloud's. docs/CLOUDSIM.md describes what is
/// modelled and every choice made where Apple's documentation leaves a point open.
///
/// Determinism: state lives in dictionaries for lookup only; every walk over them that can
/// reach an answer, a note or a push list is sorted first.
///
/// Every stored property is `@exclusivity(unchecked)`, as on `World`'s hot properties: the
/// service is a state machine that calls out to nothing, and every access changes or reads a
/// property through stdlib collections and the value types of this target, none of which can
/// reach the service, so no two accesses can overlap and the runtime check (on every request,
/// several times) could never fire.
public final class CloudService {
    @exclusivity(unchecked) public internal(set) var configuration: CloudConfiguration

    /// Per account: database feed, subscriptions, token epoch, scripted faults.
    ///
    /// A sorted map: a container has a few accounts, looked up several times a
    /// request, and finding a name among a few by comparing costs less than hashing it.
    @exclusivity(unchecked) var accountStates: SortedMap<String, AccountState> = [:]
    /// Every zone that ever existed, keyed by zone ID (owner + name), live or not.
    @exclusivity(unchecked) var zoneStates: [ZoneID: ZoneState] = [:]
    @exclusivity(unchecked) var developmentSchema = Schema()
    @exclusivity(unchecked) var productionSchema = Schema()
    /// Source of change tags (`ct1`, `ct2`, ...), shared by every zone.
    @exclusivity(unchecked) var changeTagCounter: Int64 = 0
    /// Every request fails `serviceUnavailable` before this time.
    @exclusivity(unchecked) var outageEnd: SimTime?
    /// `serveOldVersion`: records whose previous version the next fetch of their zone serves.
    @exclusivity(unchecked) var oldVersionsToServe: [OldVersionToServe] = []
    /// `failNextBatch`: per account, the next upload fails as a whole.
    @exclusivity(unchecked) var batchFailures: [String: BatchFailure] = [:]
    /// The public database's creators and subscriptions (its records: `ZoneID.publicZone`).
    @exclusivity(unchecked) var publicDatabase = PublicDatabase()

    public init(configuration: CloudConfiguration) {
        self.configuration = configuration
        for account in configuration.accounts.sorted() {
            accountStates[account] = AccountState(name: account)
        }
    }

    /// Handles one request at its arrival time.
    ///
    /// Operation-level checks run first, in this order: outage, authentication, the account's
    /// throttle window; then the request's own checks. A private-database zone of another
    /// owner is the account's own zone of that name (the default owner), with an
    /// `owner.resolved` note; a refusal on access grounds leaves an `access.refused` note.
    public func handle(
        _ request: CloudRequest, from client: CloudClient, now: SimTime
    ) -> CloudOutcome {
        if case .accountStatus = request {
            // Answered by the device's account daemon, so neither outages nor throttling apply.
            return CloudOutcome(response: .accountStatus(client.accountStatus))
        }
        if request.databaseScope == .publicDatabase {
            // Readable signed out, so its checks are its own (CloudService+PublicDatabase).
            return handlePublic(request, from: client, now: now)
        }
        var hasAccountState = false
        if let error = operationError(
            for: request, from: client, now: now, hasAccountState: &hasAccountState)
        {
            return CloudOutcome(response: .failure(error))
        }
        guard let account = client.account else {
            preconditionFailure("an authenticated client has an account")
        }
        if !hasAccountState { ensureAccount(account) }
        guard let foreign = Self.foreignPrivateZone(in: request, account: account) else {
            return answer(request, from: client, account: account, now: now)
        }
        // Rare (a zone ID kept across an account switch): only then is the request rebuilt.
        var outcome = answer(
            request.resolvingPrivateOwners(to: account), from: client, account: account,
            now: now)
        outcome.notes.insert(
            CloudNotes.ownerResolved(
                client: client, request: request, zone: foreign, account: account), at: 0)
        return outcome
    }

    /// The request's own checks and its answer, once the operation-level checks passed.
    private func answer(
        _ request: CloudRequest, from client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        // A fetch of a busy zone is refused in its case below, the last check before it is
        // answered: matching the request for it apart would copy the request.
        switch request {
        case .accountStatus:
            preconditionFailure("answered above")
        case .fetchUserRecordID:
            return CloudOutcome(response: .userRecordID(userRecordName(of: account)))
        case .modifyZones(let scope, let save, let delete):
            return modifyZones(
                scope: scope, save: save, delete: delete, client: client, account: account)
        case .saveDatabaseSubscription(let scope):
            return saveDatabaseSubscription(scope: scope, client: client, account: account)
        case .fetchDatabaseChanges(let scope, let token):
            return fetchDatabaseChanges(
                scope: scope, token: token, account: account, client: client)
        case .fetchZoneChanges(let scope, let zone, let token, let resultsLimit):
            return answerZoneChanges(
                scope: scope, zone: zone, token: token, resultsLimit: resultsLimit,
                client: client, account: account, now: now)
        case .modifyRecords(let scope, let zone, let saves, let deletes, let policy, let atomic):
            if scope == .privateDatabase { ensureDefaultZone(zone) }
            let request = ModifyRecordsRequest(
                scope: scope, zone: zone, saves: saves, deletes: deletes, policy: policy,
                atomic: atomic)
            if !batchFailures.isEmpty, let failed = failedBatch(request, account: account) {
                return failed
            }
            return modifyRecords(request, client: client, account: account, now: now)
        case .fetchRecords(.privateDatabase, let zone, let names):
            ensureDefaultZone(zone)
            return fetchRecords(scope: .privateDatabase, zone: zone, names: names)
        case .fetchRecords(.sharedDatabase, let zone, let names):
            return fetchSharedRecords(zone: zone, names: names, client: client, account: account)
        case .fetchRecords(.publicDatabase, _, _):
            preconditionFailure("answered by handlePublic")
        case .share(let zone, let target, let action):
            return handleShare(
                zone: zone, target: target, action: action, client: client, account: account,
                now: now)
        case .fetchZone(let scope, let zone):
            if scope == .privateDatabase { ensureDefaultZone(zone) }
            return fetchZone(scope: scope, zone: zone, account: account)
        case .fetchSubscription(let scope, let id):
            return fetchSubscription(scope: scope, id: id, client: client, account: account)
        case .saveQuerySubscription(let scope, let subscription):
            return saveQuerySubscription(
                scope: scope, subscription, client: client, account: account)
        case .saveZoneSubscription(let scope, let subscription):
            if scope == .privateDatabase { ensureDefaultZone(subscription.zone) }
            return saveZoneSubscription(
                scope: scope, subscription, client: client, account: account)
        case .saveNamedDatabaseSubscription(let scope, let subscription):
            return saveNamedDatabaseSubscription(
                scope: scope, subscription, client: client, account: account)
        case .deleteSubscription(let scope, let id):
            return deleteSubscription(scope: scope, id: id, client: client, account: account)
        case .fetchAllSubscriptions(let scope):
            return fetchAllSubscriptions(scope: scope, client: client, account: account)
        case .queryRecords(let scope, let query, let resultsLimit, let cursor):
            if scope == .privateDatabase, let zone = query.zone { ensureDefaultZone(zone) }
            return queryRecords(
                scope: scope, query: cursor?.query ?? query, resultsLimit: resultsLimit,
                cursor: cursor, account: account)
        case .lookUpUser, .fetchShareMetadata:
            return answerLookup(request, account: account)
        }
    }

    /// One page of a zone's changes: a busy zone is refused first, the last check before the
    /// answer; scripted older versions join a private page.
    private func answerZoneChanges(
        scope: DatabaseScope, zone: ZoneID, token: ZoneChangeToken?, resultsLimit: Int,
        client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        // The owner's state searched once for its busy window and its token epoch.
        let owner = accountStates.peek(zone.owner) { state in
            (busyEnd: state.busyZones[zone], epoch: state.tokenEpoch)
        }
        if let error = zoneBusyError(
            zone, until: owner?.busyEnd ?? nil, scope: scope, account: account, now: now)
        {
            return CloudOutcome(response: .failure(error))
        }
        switch scope {
        case .privateDatabase:
            let outcome = fetchZoneChanges(
                scope: .privateDatabase, zone: zone, token: token, resultsLimit: resultsLimit,
                client: client, ownerEpoch: owner?.epoch)
            return oldVersionsToServe.isEmpty ? outcome : addingOldVersions(to: outcome, zone: zone)
        case .sharedDatabase:
            return fetchSharedZoneChanges(
                zone: zone, token: token, resultsLimit: resultsLimit, client: client,
                account: account)
        case .publicDatabase:
            preconditionFailure("answered by handlePublic")
        }
    }

    /// `zoneBusy` with the rest of the window for a fetch of a busy zone the client may read
    /// (its own private zone, or an owner zone in its shared database); nil otherwise.
    /// `busyEnd` is the end of the zone's busy window in its owner's state, if any.
    func zoneBusyError(
        _ zone: ZoneID, until busyEnd: SimTime?, scope: DatabaseScope, account: String,
        now: SimTime
    ) -> CloudError? {
        guard let end = busyEnd, now < end else { return nil }
        let readable = scope == .privateDatabase
            ? zone.owner == account
            : accountStates.peek(account, { $0.hasSharedZone(zone) }) == true
        return readable ? CloudMessages.zoneBusy(retryAfter: end - now) : nil
    }

    /// Creates the state of an account the configuration did not list (e.g. a sign-in to an
    /// account declared later); harmless for listed ones.
    func ensureAccount(_ account: String) {
        // `index(forKey:)`: comparing `accountStates[account]` with nil copied the state.
        if accountStates.index(forKey: account) == nil {
            accountStates[account] = AccountState(name: account)
        }
    }

    // MARK: Inspection (expectations, reports, checkers)

    /// The account names, sorted.
    public var accountNames: [String] { configuration.accounts.sorted() }

    /// The live records of a zone, sorted by record name; empty when the zone does not exist.
    public func records(in zone: ZoneID) -> [CloudRecord] {
        guard let state = zoneStates[zone], state.isLive else { return [] }
        return state.records.sortedRecords()
    }

    /// One live record by name.
    public func record(named name: String, in zone: ZoneID) -> CloudRecord? {
        guard let state = zoneStates[zone], state.isLive else { return nil }
        return state.records[name]?.record
    }

    /// The zones of an account's private database, sorted.
    public func zones(of account: String) -> [ZoneID] {
        zoneStates.values.filter { $0.id.owner == account && $0.isLive }.map(\.id).sorted()
    }

    /// The tombstones a live zone keeps for its change feed (deleted records, also cascaded
    /// ones, not re-created since), sorted by record name; empty when the zone does not exist.
    public func tombstones(in zone: ZoneID) -> [RecordDeletion] {
        guard let state = zoneStates[zone], state.isLive else { return [] }
        return state.sortedTombstones.map {
            RecordDeletion(recordName: $0.recordName, recordType: $0.recordType)
        }
    }

    /// Whether the zone was purged by the user (`user-delete-zone`) and not created again.
    public func isPurged(_ zone: ZoneID) -> Bool {
        zoneStates[zone]?.isPurged ?? false
    }

    /// The user record name `fetchUserRecordID` answers for an account: `_` + 32 hex digits,
    /// derived from the account name.
    public func userRecordName(of account: String) -> String {
        accountStates[account]?.userRecordName ?? UserRecordName.make(for: account)
    }

    /// Devices holding a database subscription of the account on `scope`, sorted.
    public func subscribedDevices(of account: String, scope: DatabaseScope) -> [String] {
        accountStates[account]?.pushTargets(scope: scope, excluding: nil) ?? []
    }

    /// The app's main zone of an account (`configuration.appZoneName`).
    public func appZone(of account: String) -> ZoneID {
        ZoneID(owner: account, name: configuration.appZoneName)
    }
}
