/// What the cloud keeps of the container's one public database besides its records (which
/// live in its default zone among the zone states, `ZoneID.publicZone`): who created each
/// live record, and each account's query subscriptions there and its devices registered for
/// their pushes (docs/CLOUDSIM.md *Public database*).
struct PublicDatabase {
    /// The creator account of each live record, by record name: only the creator may change
    /// or delete it (CloudKit's default security roles). A deletion forgets the name.
    var creators: [String: String] = [:]
    /// Per account, its query subscriptions of the public database, by ID: a subscription
    /// belongs to the account that saved it, and so do its IDs.
    var subscriptions: [String: [String: QuerySubscription]] = [:]
    /// Per account, the devices that saved or fetched one of its public subscriptions.
    var devices: [String: Set<String>] = [:]

    /// An account's subscriptions, sorted by ID.
    func subscriptions(of account: String) -> [QuerySubscription] {
        guard let mine = subscriptions[account] else { return [] }
        return mine.keys.sorted().compactMap { mine[$0] }
    }

    mutating func register(_ device: String, account: String) {
        devices[account, default: []].insert(device)
    }

    /// Whether any account holds a public query subscription (a change then compares the
    /// zone before and after).
    var hasSubscriptions: Bool {
        subscriptions.values.contains { !$0.isEmpty } // tidy: ordered (a yes-or-no answer)
    }
}

extension ZoneID {
    /// The owner the public database's zone is filed under: no account name (accounts are
    /// identifiers), so no account's private zone is ever this one.
    public static let publicDatabaseOwner = "(public)"

    /// The public database's one zone, its default zone.
    public static let publicZone = ZoneID(owner: publicDatabaseOwner, name: defaultZoneName)

    /// Whether this is the public database's zone.
    public var isPublicZone: Bool { owner == Self.publicDatabaseOwner }
}

extension CloudRequest {
    /// The database the request addresses; nil for an account request or a sharing step.
    public var databaseScope: DatabaseScope? {
        switch self {
        case .accountStatus, .fetchUserRecordID, .share, .lookUpUser, .fetchShareMetadata:
            return nil
        case .modifyZones(let scope, _, _), .saveDatabaseSubscription(let scope),
            .fetchDatabaseChanges(let scope, _), .fetchZoneChanges(let scope, _, _, _),
            .modifyRecords(let scope, _, _, _, _, _), .fetchRecords(let scope, _, _),
            .fetchZone(let scope, _), .fetchSubscription(let scope, _),
            .saveQuerySubscription(let scope, _), .saveZoneSubscription(let scope, _),
            .saveNamedDatabaseSubscription(let scope, _), .deleteSubscription(let scope, _),
            .fetchAllSubscriptions(let scope), .queryRecords(let scope, _, _, _):
            return scope
        }
    }
}
