import Foundation

/// Apple's `CKFetchSubscriptionsOperation`: subscriptions by ID (one request each), or every
/// subscription of the database (`fetchAllSubscriptionsOperation()`, one request). Each
/// subscription's result reaches `perSubscriptionResultBlock` in the order given (all of them:
/// in ID order), an ID the database does not have as `unknownItem`; if any failed, the result
/// is a `partialFailure` holding the errors by subscription ID. Fetching registers the device
/// for the subscriptions' pushes (CKDatabase+Subscriptions.swift).
open class CKFetchSubscriptionsOperation: CKDatabaseOperation, @unchecked Sendable {
    public var subscriptionIDs: [CKSubscription.ID]?
    public var perSubscriptionResultBlock:
        ((CKSubscription.ID, Result<CKSubscription, any Error>) -> Void)?
    public var fetchSubscriptionsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block: the subscriptions found by ID, and the error.
    public var fetchSubscriptionCompletionBlock:
        (([CKSubscription.ID: CKSubscription]?, (any Error)?) -> Void)?
    /// Made by `fetchAllSubscriptionsOperation()`: every subscription, whatever the IDs.
    private var fetchesAll = false

    public required override init() {}

    public convenience init(subscriptionIDs: [CKSubscription.ID]) {
        self.init()
        self.subscriptionIDs = subscriptionIDs
    }

    /// An operation that fetches every subscription of the database it is added to.
    public class func fetchAllSubscriptionsOperation() -> Self {
        let operation = self.init()
        operation.fetchesAll = true
        return operation
    }

    override func perform(on database: CKDatabase) async {
        let results: [(CKSubscription.ID, Result<CKSubscription, any Error>)]
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            results = try await fetchesAll ? fetchAll(database) : fetchEach(database)
        } catch {
            fetchSubscriptionsResultBlock?(.failure(error))
            fetchSubscriptionCompletionBlock?(nil, error)
            return
        }
        var found: [CKSubscription.ID: CKSubscription] = [:]
        var failures: [AnyHashable: any Error] = [:]
        for (id, result) in results { // tidy: ordered (an array, in the app's or ID order)
            perSubscriptionResultBlock?(id, result)
            switch result {
            case .success(let subscription): found[id] = subscription
            case .failure(let error): failures[id] = error
            }
        }
        let error: CKError? = failures.isEmpty ? nil : CKError(partialFailure: failures)
        fetchSubscriptionsResultBlock?(error.map { .failure($0) } ?? .success(()))
        fetchSubscriptionCompletionBlock?(found, error)
    }

    private func fetchAll(
        _ database: CKDatabase
    ) async throws -> [(CKSubscription.ID, Result<CKSubscription, any Error>)] {
        try await database.allSubscriptions().map { ($0.subscriptionID, .success($0)) }
    }

    /// One request per ID; an item's own failure is its result, the request's is thrown.
    private func fetchEach(
        _ database: CKDatabase
    ) async throws -> [(CKSubscription.ID, Result<CKSubscription, any Error>)] {
        var results: [(CKSubscription.ID, Result<CKSubscription, any Error>)] = []
        for id in subscriptionIDs ?? [] { // tidy: ordered (the app's array)
            guard !isCancelled else { throw CKError(.operationCancelled) }
            do {
                results.append((id, .success(try await database.subscription(for: id))))
            } catch {
                guard !CKDatabase.failsTheRequest(error) else { throw error }
                results.append((id, .failure(error)))
            }
        }
        return results
    }
}
