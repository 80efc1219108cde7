import CloudSim

/// A subscription the device knows for an account: one it saved or fetched (by ID, or all of
/// a database). On a push the device's handler gets one notification per known subscription
/// (RemoteNotifications.swift). The list is the server's state as the device last saw it, so
/// it is kept with the device's container through a kill and a reinstall; a device with a new
/// container knows none until it fetches them.
struct KnownSubscription: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case database
        case zone(ZoneID)
        /// With the reason its notifications give (a push carries no payload).
        case query(QuerySubscription.Reason)
    }

    var account: String
    var scope: DatabaseScope
    var id: String
    var kind: Kind

    init(_ subscription: CloudSim.Subscription, account: String, scope: DatabaseScope) {
        self.account = account
        self.scope = scope
        id = subscription.id
        switch subscription {
        case .database: kind = .database
        case .zone(let zone): kind = .zone(zone.zone)
        case .query(let query): kind = .query(Self.reason(of: query))
        }
    }

    /// The reason a query subscription's notification gives: the one it fires on when it
    /// fires on one only, else `recordUpdated`.
    static func reason(of query: QuerySubscription) -> QuerySubscription.Reason {
        switch (query.firesOnCreation, query.firesOnUpdate, query.firesOnDeletion) {
        case (true, false, false): return .recordCreated
        case (false, false, true): return .recordDeleted
        default: return .recordUpdated
        }
    }

    /// Notification order: by ID, then by database.
    static func precedes(_ left: KnownSubscription, _ right: KnownSubscription) -> Bool {
        (left.id, left.scope.rawValue) < (right.id, right.scope.rawValue)
    }
}

extension AppContainer {
    /// Knows `subscription` from now on, in place of one of its ID in its database.
    func remember(_ subscription: KnownSubscription) {
        forget(account: subscription.account, scope: subscription.scope, id: subscription.id)
        subscriptions.append(subscription)
    }

    /// Forgets the subscription of that ID (deleted, or unknown to the server).
    func forget(account: String, scope: DatabaseScope, id: String) {
        subscriptions.removeAll { $0.account == account && $0.scope == scope && $0.id == id }
    }

    /// Knows exactly `fetched` of the account's database: what a fetch of them all found.
    func replace(account: String, scope: DatabaseScope, with fetched: [KnownSubscription]) {
        subscriptions.removeAll { $0.account == account && $0.scope == scope }
        subscriptions += fetched
    }
}
