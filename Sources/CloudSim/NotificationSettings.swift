/// What a subscription asks its pushes to show (`CKSubscription.NotificationInfo`: alert
/// texts, sound, badge, `content-available`, …), kept with the subscription and handed back
/// when it is fetched. SyncLab's pushes are silent whatever it says: nothing reads it but the
/// app that fetches it (docs/CLOUDSIM.md *Subscriptions*).
public struct NotificationSettings: Hashable, Sendable {
    /// The settings by their name in Apple's API (`alertBody`, `shouldBadge`, …): texts as
    /// strings, key lists as lists of strings, flags as 0 or 1. Looked up by name, never
    /// walked.
    public var fields: [String: CloudValue]

    public init(fields: [String: CloudValue] = [:]) {
        self.fields = fields
    }
}
