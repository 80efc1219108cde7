import Foundation

/// Apple's `CKNotification`, as `CKNotification(fromRemoteNotificationDictionary:)` reads it
/// from a push's dictionary: a `CKDatabaseNotification`, `CKRecordZoneNotification` or
/// `CKQueryNotification`, after the kind of subscription the push is for.
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
        guard let ck = dictionary["ck"] as? [String: Any] else { return nil }
        let (id, container) = (ck["sid"] as? String, ck["cid"] as? String)
        if let zone = ck["fet"] as? [String: Any] {
            guard let zoneName = zone["zid"] as? String, let owner = zone["zoid"] as? String
            else { return nil }
            return CKRecordZoneNotification(
                subscriptionID: id, containerIdentifier: container,
                recordZoneID: CKRecordZone.ID(zoneName: zoneName, ownerName: owner),
                databaseScope: scope(zone["dbs"]))
        }
        if let database = ck["met"] as? [String: Any] {
            return CKDatabaseNotification(
                subscriptionID: id, containerIdentifier: container,
                databaseScope: scope(database["dbs"]))
        }
        if let query = ck["qry"] as? [String: Any] {
            let reason = CKQueryNotification.Reason(rawValue: query["fo"] as? Int ?? 2)
            return CKQueryNotification(
                subscriptionID: id, containerIdentifier: container,
                reason: reason ?? .recordUpdated, databaseScope: scope(query["dbs"]))
        }
        return nil
    }

    private static func scope(_ value: Any?) -> CKDatabase.Scope {
        CKDatabase.Scope(rawValue: value as? Int ?? 2) ?? .private
    }

    /// The dictionary a push carries for one subscription the device knows: the `ck` entry
    /// Apple's `CKNotification(fromRemoteNotificationDictionary:)` reads (`met` for a
    /// database subscription, `fet` for a zone's, `qry` for a query's), with
    /// `content-available`.
    static func dictionary(
        for subscription: KnownSubscription, container: String
    ) -> [AnyHashable: Any] {
        let scope = switch subscription.scope {
        case .publicDatabase: CKDatabase.Scope.public.rawValue
        case .privateDatabase: CKDatabase.Scope.private.rawValue
        case .sharedDatabase: CKDatabase.Scope.shared.rawValue
        }
        var ck: [String: Any] = ["sid": subscription.id, "cid": container]
        switch subscription.kind {
        case .database:
            ck["met"] = ["dbs": scope] as [String: Any]
        case .zone(let zone):
            let zoneID = CKRecordZone.ID.of(zone, account: subscription.account)
            ck["fet"] = ["zid": zoneID.zoneName, "zoid": zoneID.ownerName, "dbs": scope]
                as [String: Any]
        case .query(let reason):
            ck["qry"] = ["dbs": scope, "fo": reason.rawValue] as [String: Any]
        }
        return ["aps": ["content-available": 1], "ck": ck]
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
