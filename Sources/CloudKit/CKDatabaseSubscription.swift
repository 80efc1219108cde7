import CloudSim
import Foundation

/// Apple's `CKDatabaseSubscription`: a push to the account's other devices when records of
/// the database change, the usual subscription for custom zones and the only one the shared
/// database takes. It pushes as the cloud's database pushes do: for the private database's
/// custom zones (never its default zone) and for the shared database's zones
/// (docs/CLOUDSIM.md *Subscriptions*).
public final class CKDatabaseSubscription: CKSubscription, @unchecked Sendable {
    /// The ID `init()` gives. Apple's is random; SyncLab's is fixed, to stay deterministic, so
    /// every device that makes one with `init()` names the same subscription.
    public static let defaultSubscriptionID = "database"

    /// Kept with the subscription; SyncLab's database pushes are not narrowed by it.
    public var recordType: CKRecord.RecordType?

    public init(subscriptionID: CKSubscription.ID) {
        super.init(subscriptionID: subscriptionID, type: .database)
    }

    /// Apple's `init()` (deprecated there): named `defaultSubscriptionID` here.
    public convenience init() {
        self.init(subscriptionID: Self.defaultSubscriptionID)
    }

    convenience init(_ subscription: DatabaseSubscription) {
        self.init(subscriptionID: subscription.id)
        recordType = subscription.recordType
        notificationInfo = subscription.notificationInfo.map(NotificationInfo.init(settings:))
    }

    override func simulated(account: String) -> CloudSim.Subscription? {
        .database(DatabaseSubscription(
            id: subscriptionID, recordType: recordType,
            notificationInfo: notificationInfo?.settings))
    }
}
