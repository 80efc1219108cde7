import CloudSim
import Foundation

/// Apple's `CKRecordZoneSubscription`: a push to the account's other devices when any
/// record of the zone changes (private database only).
public final class CKRecordZoneSubscription: CKSubscription, @unchecked Sendable {
    public let zoneID: CKRecordZone.ID
    /// Kept with the subscription; SyncLab's zone pushes are not narrowed by it.
    public var recordType: CKRecord.RecordType?

    public init(zoneID: CKRecordZone.ID, subscriptionID: CKSubscription.ID) {
        self.zoneID = zoneID
        super.init(subscriptionID: subscriptionID, type: .recordZone)
    }

    /// Apple's default ID is random; SyncLab's is the zone's name, to stay deterministic.
    public convenience init(zoneID: CKRecordZone.ID) {
        self.init(zoneID: zoneID, subscriptionID: "zone-" + zoneID.zoneName)
    }

    convenience init(_ subscription: ZoneSubscription, account: String?) {
        self.init(zoneID: .of(subscription.zone, account: account),
            subscriptionID: subscription.id)
        recordType = subscription.recordType
        notificationInfo = subscription.notificationInfo.map(NotificationInfo.init(settings:))
    }

    override func simulated(account: String) -> CloudSim.Subscription? {
        .zone(ZoneSubscription(
            id: subscriptionID, zone: zoneID.simulated(account: account), recordType: recordType,
            notificationInfo: notificationInfo?.settings))
    }
}
