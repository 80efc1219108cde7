import Kernel

/// A `CKQuerySubscription` of the private database (docs/CLOUDSIM.md): pushes for records of
/// one type, with the predicate `true` (the only one modelled), on the reasons its options
/// name. With no zone it covers every zone of the database.
public struct QuerySubscription: Hashable, Sendable {
    public var id: String
    public var recordType: String
    public var firesOnCreation: Bool
    public var firesOnUpdate: Bool
    public var firesOnDeletion: Bool
    /// `CKQuerySubscription.zoneID`; nil: every zone.
    public var zone: ZoneID?

    public init(
        id: String, recordType: String, firesOnCreation: Bool = true, firesOnUpdate: Bool = true,
        firesOnDeletion: Bool = true, zone: ZoneID? = nil
    ) {
        self.id = id
        self.recordType = recordType
        self.firesOnCreation = firesOnCreation
        self.firesOnUpdate = firesOnUpdate
        self.firesOnDeletion = firesOnDeletion
        self.zone = zone
    }

    /// Why a query notification fires (`CKQueryNotification.Reason`).
    public enum Reason: Int, Hashable, Sendable {
        case recordCreated = 1
        case recordUpdated = 2
        case recordDeleted = 3
    }

    /// Whether a change of a record of `recordType` in `zone` for `reason` fires it.
    public func fires(recordType: String, zone: ZoneID, reason: Reason) -> Bool {
        guard recordType == self.recordType, self.zone == nil || self.zone == zone else {
            return false
        }
        switch reason {
        case .recordCreated: return firesOnCreation
        case .recordUpdated: return firesOnUpdate
        case .recordDeleted: return firesOnDeletion
        }
    }
}

extension CloudService {
    /// `fetch(withRecordZoneID:)` on the private database: `.zoneFetched` for a live zone,
    /// else the zone's missing error (`zoneNotFound`, or `userDeletedZone` after a purge).
    func fetchZone(scope: DatabaseScope, zone: ZoneID, account: String) -> CloudOutcome {
        guard scope == .privateDatabase else {
            // The shared database's zones are other owners'; naive never asks for them.
            return CloudOutcome(response: .failure(CloudMessages.querySubscriptionScope))
        }
        guard liveZoneState(zone) != nil else {
            return CloudOutcome(response: .failure(missingZoneError(zone)))
        }
        return CloudOutcome(response: .zoneFetched(zone))
    }

    /// `fetch(withSubscriptionID:)`: the account's query subscription of that ID, or
    /// `unknownItem`. Either way the device registered for the account's query pushes.
    func fetchSubscription(
        scope: DatabaseScope, id: String, client: CloudClient, account: String
    ) -> CloudOutcome {
        guard scope == .privateDatabase else {
            return CloudOutcome(response: .failure(CloudMessages.querySubscriptionScope))
        }
        accountStates[account]?.queryPushDevices.insert(client.device)
        if let zoneSubscription = accountStates[account]?.zoneSubscriptions[id] {
            return CloudOutcome(response: .zoneSubscriptionFetched(zoneSubscription))
        }
        guard let subscription = accountStates[account]?.querySubscriptions[id] else {
            return CloudOutcome(response: .failure(CloudMessages.unknownSubscription(id)))
        }
        return CloudOutcome(response: .subscriptionFetched(subscription))
    }

    /// Saves a query subscription under its ID (replacing one of the same ID) and registers
    /// the device for the account's query pushes; note `subscription.saved`.
    func saveQuerySubscription(
        scope: DatabaseScope, _ subscription: QuerySubscription, client: CloudClient,
        account: String
    ) -> CloudOutcome {
        guard scope == .privateDatabase else {
            return CloudOutcome(response: .failure(CloudMessages.querySubscriptionScope))
        }
        accountStates[account]?.zoneSubscriptions[subscription.id] = nil
        accountStates[account]?.querySubscriptions[subscription.id] = subscription
        accountStates[account]?.queryPushDevices.insert(client.device)
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNotes.querySubscriptionSaved(
                    subscription, account: account, device: client.device)
            ])
    }

    /// The devices a stored change of a zone pushes to through the owner's query
    /// subscriptions: every record the change log shows written or deleted by the request
    /// (cascades included) whose type and reason fire a subscription; the registered devices
    /// of the owner, never the originator, sorted. One push per device per request (pushes
    /// coalesce).
    func queryPushTargets(before: ZoneState, after: ZoneState, originator: String) -> [String] {
        guard let owner = accountStates[after.id.owner], !owner.queryPushDevices.isEmpty else {
            return []
        }
        // A zone subscription fires on any change the request left in its zone's log.
        if after.log.last.map({ $0.sequence > before.sequence }) == true,
            zoneSubscriptionFires(owner: owner, zone: after.id)
        {
            return owner.queryPushDevices.filter { $0 != originator }.sorted()
        }
        guard !owner.querySubscriptions.isEmpty else { return [] }
        let subscriptions = owner.querySubscriptions.keys.sorted().compactMap {
            owner.querySubscriptions[$0]
        }
        var fires = false
        // The request's entries are the log's last ones: walk back to the first before it.
        for entry in after.log.reversed() {
            guard entry.sequence > before.sequence else { break }
            let name = entry.recordName
            let change: (type: String, reason: QuerySubscription.Reason)
            if let record = after.records[name]?.record {
                let existed = before.records.contains(name)
                change = (record.recordType, existed ? .recordUpdated : .recordCreated)
            } else if let tombstone = after.tombstone(named: name, nameHash: entry.nameHash) {
                change = (tombstone.recordType, .recordDeleted)
            } else {
                continue
            }
            if subscriptions.contains(where: {
                $0.fires(recordType: change.type, zone: after.id, reason: change.reason)
            }) {
                fires = true
                break
            }
        }
        guard fires else { return [] }
        return owner.queryPushDevices.filter { $0 != originator }.sorted()
    }

    /// The account's query subscriptions, sorted by ID (inspection).
    public func querySubscriptions(of account: String) -> [QuerySubscription] {
        guard let state = accountStates[account] else { return [] }
        return state.querySubscriptions.keys.sorted().compactMap { state.querySubscriptions[$0] }
    }
}

extension CloudMessages {
    static func unknownSubscription(_ id: String) -> CloudError {
        CloudError(.unknownItem, message: "Subscription '\(id)' not found")
    }

    static let querySubscriptionScope = CloudError(
        .invalidArguments,
        message: "Query subscriptions and zone fetches are modelled on the private database only")
}

extension CloudNotes {
    static func querySubscriptionSaved(
        _ subscription: QuerySubscription, account: String, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "subscription.saved",
            details: [
                NoteField("account", account),
                NoteField("scope", DatabaseScope.privateDatabase.rawValue),
                NoteField("device", device),
                NoteField("subscription", subscription.id),
                NoteField("recordType", subscription.recordType),
            ])
    }

    /// An `allKeys` save that wrote, over a different value in iCloud, keys its client did not
    /// say it changed (every key of a freshly built record is written): the other device's
    /// value of those keys is lost. Neutral: the engine profile names the rule (naive's lost
    /// update, NAIVEW-1), as for `record.recreated` (docs/CLOUDSIM.md, *Notes*).
    static func keysOverwritten(
        _ save: RecordSave, plan: PlannedSave, saved: CloudRecord
    ) -> CloudNote? {
        guard plan.policy == .allKeys, let previous = plan.previous else { return nil }
        let stated = Set(save.changedKeys)
        let overwritten = plan.writtenKeys.filter { key in
            !stated.contains(key) && previous.fields[key] != saved.fields[key]
        }
        guard !overwritten.isEmpty else { return nil }
        return CloudNote(
            kind: "record.overwritten",
            details: [
                NoteField("zone", saved.zone.description),
                NoteField("recordName", saved.recordName),
                NoteField("keys", overwritten.joined(separator: ",")),
                NoteField("device", saved.lastModifiedBy ?? ""),
                NoteField("previousWriter", previous.lastModifiedBy ?? ""),
            ])
    }
}
