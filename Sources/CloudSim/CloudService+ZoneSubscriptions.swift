/// A `CKRecordZoneSubscription` of the private database ([CKRecordZoneSubscription];
/// docs/CLOUDSIM.md *Pushes*): a push for every change of one zone's records.
public struct ZoneSubscription: Hashable, Sendable {
    public var id: String
    public var zone: ZoneID
    /// `CKRecordZoneSubscription.recordType`: kept and handed back; it narrows no push.
    public var recordType: String?
    public var notificationInfo: NotificationSettings?

    public init(
        id: String, zone: ZoneID, recordType: String? = nil,
        notificationInfo: NotificationSettings? = nil
    ) {
        self.id = id
        self.zone = zone
        self.recordType = recordType
        self.notificationInfo = notificationInfo
    }
}

extension CloudService {
    /// Saves a zone subscription under its ID (replacing a query or zone subscription of the
    /// same ID) and registers the device for the account's subscription pushes; note
    /// `subscription.saved`. The zone must be the account's and live.
    func saveZoneSubscription(
        scope: DatabaseScope, _ subscription: ZoneSubscription, client: CloudClient,
        account: String
    ) -> CloudOutcome {
        guard scope == .privateDatabase else {
            return CloudOutcome(response: .failure(CloudMessages.querySubscriptionScope))
        }
        guard liveZoneState(subscription.zone) != nil else {
            return CloudOutcome(response: .failure(missingZoneError(subscription.zone)))
        }
        accountStates.change(account) { state in
            state.querySubscriptions[subscription.id] = nil
            state.zoneSubscriptions[subscription.id] = subscription
            state.forgetNamedSubscription(subscription.id, scope: .privateDatabase)
            state.register(client.device, scope: .privateDatabase)
        }
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNotes.zoneSubscriptionSaved(
                    subscription, account: account, device: client.device)
            ])
    }

    /// Whether a zone subscription of the owner covers the zone a request changed.
    func zoneSubscriptionFires(owner: AccountState, zone: ZoneID) -> Bool {
        owner.zoneSubscriptions.values.contains { $0.zone == zone } // tidy: ordered (any)
    }

    /// The account's zone subscriptions, sorted by ID (inspection).
    public func zoneSubscriptions(of account: String) -> [ZoneSubscription] {
        guard let state = accountStates[account] else { return [] }
        return state.zoneSubscriptions.keys.sorted().compactMap { state.zoneSubscriptions[$0] }
    }
}

extension CloudNotes {
    static func zoneSubscriptionSaved(
        _ subscription: ZoneSubscription, account: String, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "subscription.saved",
            details: [
                NoteField("account", account),
                NoteField("scope", DatabaseScope.privateDatabase.rawValue),
                NoteField("device", device),
                NoteField("subscription", subscription.id),
                NoteField("zone", subscription.zone.description),
            ])
    }
}
