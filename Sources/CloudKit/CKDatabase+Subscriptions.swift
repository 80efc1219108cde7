import CloudSim
import Foundation

/// Apple's `async` subscription calls of `CKDatabase`: one request per subscription. The
/// device knows each subscription it saves or fetches, and forgets the ones it deletes or the
/// server no longer has; on a push its registered handler gets one notification per known
/// subscription (RemoteNotifications.swift).
extension CKDatabase {
    /// Saves a subscription of any kind (Apple's `save(_:)`), replacing one of its ID. Query
    /// and zone subscriptions exist in the private database only; a query subscription's
    /// predicate must be one the server evaluates (CKQuerySubscription+Predicate.swift).
    @discardableResult
    public func save(_ subscription: CKSubscription) async throws -> CKSubscription {
        let runtime = try Self.runtime("save(_:)")
        let account = runtime.account ?? ""
        guard let simulated = subscription.simulated(account: account) else {
            let why = (subscription as? CKQuerySubscription).flatMap {
                CKQuerySubscription.refusal($0.predicate)
            } ?? "it cannot be evaluated by the server"
            throw CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey:
                "Subscription '\(subscription.subscriptionID)' refused: \(why)"])
        }
        let scope = databaseScope.simulated
        let request: CloudRequest
        switch simulated {
        case .query(let query): request = .saveQuerySubscription(scope: scope, query)
        case .zone(let zone): request = .saveZoneSubscription(scope: scope, zone)
        case .database(let database):
            request = .saveNamedDatabaseSubscription(scope: scope, database)
        }
        let response = await runtime.request(request)
        guard case .subscriptionSaved = response else { throw Self.error(response, runtime) }
        runtime.container.remember(KnownSubscription(simulated, account: account, scope: scope))
        return subscription
    }

    /// Fetches one subscription by ID (Apple's `subscription(for:)`); `unknownItem` when the
    /// database has none of that ID.
    public func subscription(for subscriptionID: CKSubscription.ID) async throws
        -> CKSubscription {
        let runtime = try Self.runtime("subscription(for:)")
        let account = runtime.account ?? ""
        let scope = databaseScope.simulated
        let response = await runtime.request(.fetchSubscription(scope: scope, id: subscriptionID))
        let found: CloudSim.Subscription
        switch response {
        case .subscriptionFetched(let query): found = .query(query)
        case .namedSubscriptionFetched(let named): found = named
        default:
            if case .failure(let error) = response, error.code == .unknownItem {
                runtime.container.forget(account: account, scope: scope, id: subscriptionID)
            }
            throw Self.error(response, runtime)
        }
        runtime.container.remember(KnownSubscription(found, account: account, scope: scope))
        return CKSubscription.from(found, account: runtime.account)
    }

    /// Every subscription of the database, sorted by ID (Apple's `allSubscriptions()`).
    public func allSubscriptions() async throws -> [CKSubscription] {
        let runtime = try Self.runtime("allSubscriptions()")
        let account = runtime.account ?? ""
        let scope = databaseScope.simulated
        let response = await runtime.request(.fetchAllSubscriptions(scope: scope))
        guard case .subscriptionsFetched(let all) = response else {
            throw Self.error(response, runtime)
        }
        runtime.container.replace(account: account, scope: scope, with: all.map {
            KnownSubscription($0, account: account, scope: scope)
        })
        return all.map { CKSubscription.from($0, account: runtime.account) }
    }

    /// Deletes one subscription (Apple's `deleteSubscription(withID:)`): it fires no more;
    /// `unknownItem` when the database has none of that ID.
    @discardableResult
    public func deleteSubscription(withID subscriptionID: CKSubscription.ID) async throws
        -> CKSubscription.ID {
        let runtime = try Self.runtime("deleteSubscription(withID:)")
        let account = runtime.account ?? ""
        let scope = databaseScope.simulated
        let response = await runtime.request(.deleteSubscription(scope: scope, id: subscriptionID))
        let gone: Bool
        switch response {
        case .subscriptionDeleted: gone = true
        case .failure(let error): gone = error.code == .unknownItem
        default: gone = false
        }
        if gone { runtime.container.forget(account: account, scope: scope, id: subscriptionID) }
        guard case .subscriptionDeleted = response else { throw Self.error(response, runtime) }
        return subscriptionID
    }

    /// Saves and deletes subscriptions (Apple's `modifySubscriptions(saving:deleting:)`), one
    /// request each, saves first: each result by ID, an item's failure in its result. A
    /// failure of the request itself (no network or account, an outage, throttling) is thrown.
    public func modifySubscriptions(
        saving subscriptionsToSave: [CKSubscription],
        deleting subscriptionIDsToDelete: [CKSubscription.ID]
    ) async throws -> (
        saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>],
        deleteResults: [CKSubscription.ID: Result<Void, any Error>]
    ) {
        var saved: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        for subscription in subscriptionsToSave { // tidy: ordered (an array)
            do {
                saved[subscription.subscriptionID] = .success(try await save(subscription))
            } catch {
                guard !Self.failsTheRequest(error) else { throw error }
                saved[subscription.subscriptionID] = .failure(error)
            }
        }
        var deleted: [CKSubscription.ID: Result<Void, any Error>] = [:]
        for id in subscriptionIDsToDelete { // tidy: ordered (an array)
            do {
                try await deleteSubscription(withID: id)
                deleted[id] = .success(())
            } catch {
                guard !Self.failsTheRequest(error) else { throw error }
                deleted[id] = .failure(error)
            }
        }
        return (saved, deleted)
    }

    /// Whether an error is the whole request's rather than one item's.
    static func failsTheRequest(_ error: any Error) -> Bool {
        guard let error = error as? CKError else { return true }
        switch error.code {
        case .notAuthenticated, .accountTemporarilyUnavailable, .networkFailure,
            .networkUnavailable, .requestRateLimited, .serviceUnavailable, .operationCancelled:
            return true
        default:
            return false
        }
    }
}
