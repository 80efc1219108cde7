/// A named `CKDatabaseSubscription` ([CKDatabaseSubscription]; docs/CLOUDSIM.md
/// *Subscriptions*): a push for every change of the database, under the rules of the engines'
/// unnamed subscription (private custom zones, the shared database's views).
public struct DatabaseSubscription: Hashable, Sendable {
    public var id: String
    /// `CKDatabaseSubscription.recordType`: kept and handed back; it narrows no push.
    public var recordType: String?
    public var notificationInfo: NotificationSettings?

    public init(
        id: String, recordType: String? = nil, notificationInfo: NotificationSettings? = nil
    ) {
        self.id = id
        self.recordType = recordType
        self.notificationInfo = notificationInfo
    }
}

extension CloudService {
    /// Saves a named database subscription under its ID (replacing a query, zone or database
    /// subscription of that ID in the database) and registers the device for the database's
    /// pushes; note `subscription.saved`.
    func saveNamedDatabaseSubscription(
        scope: DatabaseScope, _ subscription: DatabaseSubscription, client: CloudClient,
        account: String
    ) -> CloudOutcome {
        accountStates.change(account) { state in
            if scope == .privateDatabase {
                state.querySubscriptions[subscription.id] = nil
                state.zoneSubscriptions[subscription.id] = nil
            }
            state.databaseSubscriptions[scope, default: [:]][subscription.id] = subscription
            state.register(client.device, scope: scope)
            state.refreshSubscribers(scope: scope)
        }
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNotes.namedSubscriptionSaved(
                    subscription.id, account: account, scope: scope, device: client.device)
            ])
    }

    /// The account's named database subscriptions of a database, sorted by ID (inspection).
    public func databaseSubscriptions(
        of account: String, scope: DatabaseScope
    ) -> [DatabaseSubscription] {
        guard let named = accountStates[account]?.databaseSubscriptions[scope] else { return [] }
        return named.keys.sorted().compactMap { named[$0] }
    }
}

extension CloudNotes {
    static func namedSubscriptionSaved(
        _ id: String, account: String, scope: DatabaseScope, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "subscription.saved",
            details: [
                NoteField("account", account),
                NoteField("scope", scope.rawValue),
                NoteField("device", device),
                NoteField("subscription", id),
            ])
    }

    /// A subscription deleted by a device's request (`reason` `deleted`) or after the one
    /// push of a `firesOnce` query subscription (`fired-once`, the device whose change fired
    /// it).
    static func subscriptionDeleted(
        _ id: String, account: String, scope: DatabaseScope, device: String, reason: String
    ) -> CloudNote {
        CloudNote(
            kind: "subscription.deleted",
            details: [
                NoteField("account", account),
                NoteField("scope", scope.rawValue),
                NoteField("device", device),
                NoteField("subscription", id),
                NoteField("reason", reason),
            ])
    }
}
