import Foundation

/// Apple's `CKNotification`, as `CKNotification(fromRemoteNotificationDictionary:)` reads it
/// from a push's dictionary. The facade saves only zone subscriptions, so every notification
/// it makes is a `CKRecordZoneNotification`.
open class CKNotification: NSObject, @unchecked Sendable {
    // `@unchecked`: immutable.
    /// Apple's raw values.
    public enum NotificationType: Int, Sendable {
        case query = 1
        case recordZone = 2
        case readNotification = 3
        case database = 4
    }

    public let notificationType: NotificationType
    public let subscriptionID: CKSubscription.ID?
    public let containerIdentifier: String?
    /// CloudKit's pushes are silent here: no alert, badge or sound.
    public let isPruned = false

    init(type: NotificationType, subscriptionID: String?, containerIdentifier: String?) {
        notificationType = type
        self.subscriptionID = subscriptionID
        self.containerIdentifier = containerIdentifier
    }

    /// The notification a push's dictionary holds (its `ck` entry); nil for another push.
    static func made(from dictionary: [AnyHashable: Any]) -> CKNotification? {
        guard let ck = dictionary["ck"] as? [String: Any],
            let zone = ck["fet"] as? [String: Any],
            let zoneName = zone["zid"] as? String,
            let owner = zone["zoid"] as? String
        else { return nil }
        return CKRecordZoneNotification(
            subscriptionID: ck["sid"] as? String, containerIdentifier: ck["cid"] as? String,
            recordZoneID: CKRecordZone.ID(zoneName: zoneName, ownerName: owner),
            databaseScope: CKDatabase.Scope(rawValue: zone["dbs"] as? Int ?? 2) ?? .private)
    }

    /// The dictionary a push for a zone subscription carries (the `ck` entry Apple's
    /// `CKNotification(fromRemoteNotificationDictionary:)` reads, with `content-available`).
    static func dictionary(
        subscriptionID: String, zoneID: CKRecordZone.ID, container: String
    ) -> [AnyHashable: Any] {
        [
            "aps": ["content-available": 1],
            "ck": [
                "sid": subscriptionID, "cid": container,
                "fet": ["zid": zoneID.zoneName, "zoid": zoneID.ownerName, "dbs": 2],
            ] as [String: Any],
        ]
    }
}

/// Apple's `CKRecordZoneNotification`: records of a zone changed.
public final class CKRecordZoneNotification: CKNotification, @unchecked Sendable {
    public let recordZoneID: CKRecordZone.ID?
    public let databaseScope: CKDatabase.Scope

    init(
        subscriptionID: String?, containerIdentifier: String?, recordZoneID: CKRecordZone.ID,
        databaseScope: CKDatabase.Scope
    ) {
        self.recordZoneID = recordZoneID
        self.databaseScope = databaseScope
        super.init(
            type: .recordZone, subscriptionID: subscriptionID,
            containerIdentifier: containerIdentifier)
    }
}

/// Lets `CKNotification(fromRemoteNotificationDictionary:)` give the subclass the dictionary
/// describes, as Objective-C's factory method does (a class's own initializer cannot).
public protocol CKNotificationFactory {}

extension CKNotification: CKNotificationFactory {}

extension CKNotificationFactory where Self: CKNotification {
    /// Apple's `CKNotification(fromRemoteNotificationDictionary:)`: nil for a push that is
    /// not CloudKit's.
    public init?(fromRemoteNotificationDictionary notificationDictionary: [AnyHashable: Any]) {
        guard let made = CKNotification.made(from: notificationDictionary) as? Self else {
            return nil
        }
        self = made
    }
}
