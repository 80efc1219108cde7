import Foundation

/// Apple's `CKModifySubscriptionsOperation`: saves and deletes subscriptions, one request
/// each, saves first (`CKDatabase.modifySubscriptions`). Each subscription's result reaches
/// its block in the order given; if any failed, the result is a `partialFailure` holding the
/// errors by subscription ID (deleting an ID the database does not have: `unknownItem`).
open class CKModifySubscriptionsOperation: CKDatabaseOperation, @unchecked Sendable {
    public var subscriptionsToSave: [CKSubscription]?
    public var subscriptionIDsToDelete: [CKSubscription.ID]?
    public var perSubscriptionSaveBlock:
        ((CKSubscription.ID, Result<CKSubscription, any Error>) -> Void)?
    public var perSubscriptionDeleteBlock: ((CKSubscription.ID, Result<Void, any Error>) -> Void)?
    public var modifySubscriptionsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Apple's earlier result block: the saved subscriptions, the deleted IDs and the error.
    public var modifySubscriptionsCompletionBlock:
        (([CKSubscription]?, [CKSubscription.ID]?, (any Error)?) -> Void)?

    public override init() {}

    public convenience init(subscriptionsToSave: [CKSubscription]? = nil,
                            subscriptionIDsToDelete: [CKSubscription.ID]? = nil) {
        self.init()
        self.subscriptionsToSave = subscriptionsToSave
        self.subscriptionIDsToDelete = subscriptionIDsToDelete
    }

    override func perform(on database: CKDatabase) async {
        let saves = subscriptionsToSave ?? []
        let deletes = subscriptionIDsToDelete ?? []
        let results: (saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>],
                      deleteResults: [CKSubscription.ID: Result<Void, any Error>])
        do {
            guard !isCancelled else { throw CKError(.operationCancelled) }
            results = try await database.modifySubscriptions(saving: saves, deleting: deletes)
        } catch {
            modifySubscriptionsResultBlock?(.failure(error))
            modifySubscriptionsCompletionBlock?(nil, nil, error)
            return
        }
        var failures: [AnyHashable: any Error] = [:]
        var saved: [CKSubscription] = []
        var deleted: [CKSubscription.ID] = []
        for subscription in saves { // tidy: ordered (the app's array)
            let id = subscription.subscriptionID
            guard let result = results.saveResults[id] else { continue }
            perSubscriptionSaveBlock?(id, result)
            switch result {
            case .success(let stored): saved.append(stored)
            case .failure(let error): failures[id] = error
            }
        }
        for id in deletes { // tidy: ordered (the app's array)
            guard let result = results.deleteResults[id] else { continue }
            perSubscriptionDeleteBlock?(id, result)
            switch result {
            case .success: deleted.append(id)
            case .failure(let error): failures[id] = error
            }
        }
        let error: CKError? = failures.isEmpty ? nil : CKError(partialFailure: failures)
        modifySubscriptionsResultBlock?(error.map { .failure($0) } ?? .success(()))
        modifySubscriptionsCompletionBlock?(saved, deleted, error)
    }
}
