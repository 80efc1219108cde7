import Foundation

/// Apple's `CKDatabaseNotification`: records of the database changed (a
/// `CKDatabaseSubscription`'s push); fetch the database's changes to learn which.
public final class CKDatabaseNotification: CKNotification, @unchecked Sendable {
    public let databaseScope: CKDatabase.Scope

    init(subscriptionID: String?, containerIdentifier: String?, databaseScope: CKDatabase.Scope) {
        self.databaseScope = databaseScope
        super.init(
            type: .database, subscriptionID: subscriptionID,
            containerIdentifier: containerIdentifier)
    }
}
