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

extension DeviceRuntime {
    /// A push arrived: one notification per subscription the device knows for its account
    /// (saved or fetched, KnownSubscriptions.swift), in subscription-ID order, each of its own
    /// kind, to the registered handler. A push here says only that something changed (pushes
    /// are coalesced), so each subscription may have fired.
    func deliverRemoteNotifications() {
        guard let handler = remoteNotificationHandler, let account else { return }
        let known = container.subscriptions.filter { $0.account == account }
            .sorted(by: KnownSubscription.precedes)
        let identifier = CKContainer.default().containerIdentifier ?? ""
        for subscription in known {
            nonisolated(unsafe) let dictionary = CKNotification.dictionary(
                for: subscription, container: identifier)
            _ = start { await handler(dictionary) }
        }
    }
}
