import CloudSim
import Foundation

/// Apple's `CKSubscription`: what the server pushes the account's devices for, one of
/// `CKQuerySubscription`, `CKRecordZoneSubscription` and `CKDatabaseSubscription`. Saved,
/// fetched and deleted through `CKDatabase` (CKDatabase+Subscriptions.swift).
open class CKSubscription: NSObject, @unchecked Sendable {
    // `@unchecked`: used on its device's thread only.
    public typealias ID = String

    /// Apple's raw values.
    public enum SubscriptionType: Int, Sendable {
        case query = 1
        case recordZone = 2
        case database = 3
    }

    public let subscriptionID: ID
    public let subscriptionType: SubscriptionType
    /// Saved with the subscription and fetched back; SyncLab's pushes are silent whatever it
    /// asks (no alert, badge or sound), so it changes no push.
    public var notificationInfo: NotificationInfo?

    init(subscriptionID: ID, type: SubscriptionType) {
        self.subscriptionID = subscriptionID
        subscriptionType = type
    }

    /// The subscription as the simulated cloud keeps it; nil when the server cannot
    /// evaluate it (a query subscription's predicate), which it refuses.
    func simulated(account: String) -> CloudSim.Subscription? { nil }

    /// The app's subscription for one the cloud holds, as `account` sees it.
    static func from(_ subscription: CloudSim.Subscription, account: String?) -> CKSubscription {
        switch subscription {
        case .query(let query): return CKQuerySubscription(query, account: account)
        case .zone(let zone): return CKRecordZoneSubscription(zone, account: account)
        case .database(let database): return CKDatabaseSubscription(database)
        }
    }
}
