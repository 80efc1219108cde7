import Foundation

/// Apple's `CKQueryNotification`: a record a `CKQuerySubscription` matches changed. SyncLab's
/// pushes carry no payload (a push says only that something changed, and pushes coalesce), so
/// `recordID` and `recordFields` are nil and the reason is the one the subscription fires on
/// when it fires on one only, else `recordUpdated`: query the records to learn what changed.
public final class CKQueryNotification: CKNotification, @unchecked Sendable {
    /// Apple's raw values.
    public enum Reason: Int, Sendable {
        case recordCreated = 1
        case recordUpdated = 2
        case recordDeleted = 3
    }

    public let queryNotificationReason: Reason
    /// Nil: the push names no record.
    public let recordID: CKRecord.ID? = nil
    /// Nil: the push carries no fields (`desiredKeys` is kept, not sent).
    public let recordFields: [String: Any]? = nil
    public let databaseScope: CKDatabase.Scope

    init(
        subscriptionID: String?, containerIdentifier: String?, reason: Reason,
        databaseScope: CKDatabase.Scope
    ) {
        queryNotificationReason = reason
        self.databaseScope = databaseScope
        super.init(
            type: .query, subscriptionID: subscriptionID,
            containerIdentifier: containerIdentifier)
    }
}
