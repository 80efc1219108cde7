import CloudSim

/// Stands in for the app delegate's `application(_:didReceiveRemoteNotification:…)`, which
/// Linux has no UIKit for: the app's code registers once per launch, as it would call
/// `registerForRemoteNotifications()`, and each push then calls `handler` on the device with
/// a dictionary `CKNotification(fromRemoteNotificationDictionary:)` reads.
public enum RemoteNotifications {
    /// Registers the running device's handler for this launch (a kill forgets it).
    public static func register(
        _ handler: @escaping @Sendable ([AnyHashable: Any]) async -> Void
    ) {
        guard let runtime = DeviceRuntime.current else {
            preconditionFailure("RemoteNotifications.register runs in a device's code")
        }
        runtime.remoteNotificationHandler = handler
    }
}

/// A zone subscription the device saved: the server pushes the device for it.
struct SavedZoneSubscription: Hashable, Sendable {
    var account: String
    var id: String
    var zone: ZoneID
}

extension DeviceRuntime {
    /// A push arrived: one notification per zone subscription the device saved for its
    /// account, in ID order, to the registered handler. A push here says only that something
    /// changed (pushes are coalesced), so each subscription's zone may have changed.
    func deliverRemoteNotifications() {
        guard let handler = remoteNotificationHandler, let account else { return }
        let saved = container.zoneSubscriptions.filter { $0.account == account }
            .sorted { $0.id < $1.id }
        for subscription in saved {
            let zoneID = CKRecordZone.ID.of(subscription.zone, account: account)
            nonisolated(unsafe) let dictionary = CKNotification.dictionary(
                subscriptionID: subscription.id, zoneID: zoneID,
                container: CKContainer.default().containerIdentifier ?? "")
            _ = start { await handler(dictionary) }
        }
    }
}
