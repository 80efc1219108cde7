/// Finding and deleting an account's subscriptions of any kind (docs/CLOUDSIM.md
/// *Subscriptions*): by ID, all of a database, and deletion by ID.
extension CloudService {
    /// `fetch(withSubscriptionID:)`: the account's subscription of that ID in the database,
    /// or `unknownItem`. Either way the device registered for the database's pushes.
    func fetchSubscription(
        scope: DatabaseScope, id: String, client: CloudClient, account: String
    ) -> CloudOutcome {
        accountStates.change(account) { $0.register(client.device, scope: scope) }
        guard let state = accountStates[account] else { preconditionFailure("account ensured") }
        if scope == .privateDatabase {
            if let zoneSubscription = state.zoneSubscriptions[id] {
                return CloudOutcome(response: .namedSubscriptionFetched(.zone(zoneSubscription)))
            }
            if let subscription = state.querySubscriptions[id] {
                return CloudOutcome(response: .subscriptionFetched(subscription))
            }
        }
        guard let named = state.databaseSubscriptions[scope]?[id] else {
            return CloudOutcome(response: .failure(CloudMessages.unknownSubscription(id)))
        }
        return CloudOutcome(response: .namedSubscriptionFetched(.database(named)))
    }

    /// `fetchAllSubscriptions`: every subscription of the account in the database, sorted by
    /// ID; the device registered for the database's pushes.
    func fetchAllSubscriptions(
        scope: DatabaseScope, client: CloudClient, account: String
    ) -> CloudOutcome {
        accountStates.change(account) { $0.register(client.device, scope: scope) }
        return CloudOutcome(response: .subscriptionsFetched(subscriptions(of: account, scope)))
    }

    /// Every subscription of the account in the database, sorted by ID (inspection).
    public func subscriptions(of account: String, _ scope: DatabaseScope) -> [Subscription] {
        if scope == .publicDatabase {
            return publicSubscriptions(of: account).map(Subscription.query)
        }
        var all = databaseSubscriptions(of: account, scope: scope).map(Subscription.database)
        if scope == .privateDatabase {
            all += querySubscriptions(of: account).map(Subscription.query)
            all += zoneSubscriptions(of: account).map(Subscription.zone)
        }
        return all.sorted { $0.id < $1.id }
    }

    /// `delete(withSubscriptionID:)`: removes the account's subscription of that ID from the
    /// database, after which it fires no more; `unknownItem` when there is none. Deleting the
    /// last named database subscription of a database leaves its pushes to the engines'
    /// subscribers. Note `subscription.deleted`.
    func deleteSubscription(
        scope: DatabaseScope, id: String, client: CloudClient, account: String
    ) -> CloudOutcome {
        var found = false
        accountStates.change(account) { state in
            if scope == .privateDatabase {
                if state.querySubscriptions.removeValue(forKey: id) != nil { found = true }
                if state.zoneSubscriptions.removeValue(forKey: id) != nil { found = true }
            }
            if state.databaseSubscriptions[scope]?.removeValue(forKey: id) != nil {
                found = true
                state.refreshSubscribers(scope: scope)
            }
        }
        guard found else {
            return CloudOutcome(response: .failure(CloudMessages.unknownSubscription(id)))
        }
        return CloudOutcome(
            response: .subscriptionDeleted,
            notes: [
                CloudNotes.subscriptionDeleted(
                    id, account: account, scope: scope, device: client.device, reason: "deleted")
            ])
    }
}
