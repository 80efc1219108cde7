import Kernel

/// A `CKQuerySubscription` of the private database (docs/CLOUDSIM.md): pushes for records of
/// one type that its predicate matches, on the reasons its options name. With no zone it
/// covers every zone of the database.
public struct QuerySubscription: Hashable, Sendable {
    public var id: String
    public var recordType: String
    public var firesOnCreation: Bool
    public var firesOnUpdate: Bool
    public var firesOnDeletion: Bool
    /// `CKQuerySubscription.zoneID`; nil: every zone.
    public var zone: ZoneID?
    /// Evaluated on the record as saved (creation, update) or as it was (deletion).
    public var predicate: QueryPredicate
    /// `firesOnce`: deleted by the first change that fires it.
    public var firesOnce: Bool
    public var notificationInfo: NotificationSettings?

    public init(
        id: String, recordType: String, firesOnCreation: Bool = true, firesOnUpdate: Bool = true,
        firesOnDeletion: Bool = true, zone: ZoneID? = nil, predicate: QueryPredicate = .all,
        firesOnce: Bool = false, notificationInfo: NotificationSettings? = nil
    ) {
        self.id = id
        self.recordType = recordType
        self.firesOnCreation = firesOnCreation
        self.firesOnUpdate = firesOnUpdate
        self.firesOnDeletion = firesOnDeletion
        self.zone = zone
        self.predicate = predicate
        self.firesOnce = firesOnce
        self.notificationInfo = notificationInfo
    }

    /// Why a query notification fires (`CKQueryNotification.Reason`).
    public enum Reason: Int, Hashable, Sendable {
        case recordCreated = 1
        case recordUpdated = 2
        case recordDeleted = 3
    }

    /// Whether a change of a record of `recordType` in `zone` for `reason` fires it, its
    /// predicate aside.
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

    /// Whether the change fires it, its predicate evaluated on `record` (the record as saved,
    /// or as it was before a deletion; nil when unknown, which only `.all` matches).
    public func fires(
        _ record: CloudRecord?, recordType: String, zone: ZoneID, reason: Reason
    ) -> Bool {
        guard fires(recordType: recordType, zone: zone, reason: reason) else { return false }
        if case .all = predicate { return true }
        return record.map(predicate.matches) ?? false
    }
}

/// What a stored change gives through the owner's query and zone subscriptions: the devices
/// to push, and the `firesOnce` query subscriptions it fired (by ID, sorted), to delete.
struct QueryPushes {
    var targets: [String] = []
    var firedOnce: [String] = []
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

    /// Saves a query subscription under its ID (replacing one of the same ID) and registers
    /// the device for the account's query pushes; note `subscription.saved`.
    func saveQuerySubscription(
        scope: DatabaseScope, _ subscription: QuerySubscription, client: CloudClient,
        account: String
    ) -> CloudOutcome {
        guard scope == .privateDatabase else {
            return CloudOutcome(response: .failure(CloudMessages.querySubscriptionScope))
        }
        // Refused as a query's predicate is: the server never guesses.
        if let part = subscription.predicate.unsupportedPart {
            return CloudOutcome(response: .failure(CloudMessages.unsupportedPredicate(part)))
        }
        accountStates.change(account) { state in
            state.zoneSubscriptions[subscription.id] = nil
            state.querySubscriptions[subscription.id] = subscription
            state.forgetNamedSubscription(subscription.id, scope: .privateDatabase)
            state.register(client.device, scope: .privateDatabase)
        }
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNotes.querySubscriptionSaved(
                    subscription, account: account, device: client.device)
            ])
    }

    /// What a stored change of a zone gives through the owner's zone and query
    /// subscriptions: a zone subscription of the zone fires on any change the request left in
    /// its log; a query subscription on a record the log shows written or deleted by the
    /// request (cascades included) whose type, reason and predicate it names. The targets are
    /// the owner's registered devices, never the originator, sorted: one push per device per
    /// request (pushes coalesce).
    func queryPushTargets(
        before: ZoneState, after: ZoneState, originator: String
    ) -> QueryPushes {
        guard let owner = accountStates[after.id.owner], !owner.queryPushDevices.isEmpty,
            after.log.last.map({ $0.sequence > before.sequence }) == true
        else { return QueryPushes() }
        let subscriptions = owner.querySubscriptions.keys.sorted().compactMap {
            owner.querySubscriptions[$0]
        }
        let anyOnce = subscriptions.contains { $0.firesOnce }
        let zoneFires = zoneSubscriptionFires(owner: owner, zone: after.id)
        // Without a `firesOnce` subscription, the first subscription that fires settles it.
        let fired = zoneFires && !anyOnce
            ? [] : firedSubscriptions(subscriptions, before: before, after: after, all: anyOnce)
        guard zoneFires || !fired.isEmpty else { return QueryPushes() }
        return QueryPushes(
            targets: owner.queryPushDevices.filter { $0 != originator }.sorted(),
            firedOnce: fired.filter(\.firesOnce).map(\.id))
    }

    /// The subscriptions (sorted by ID) that the request's entries of the log fire, in ID
    /// order; only the first one unless `all`.
    private func firedSubscriptions(
        _ subscriptions: [QuerySubscription], before: ZoneState, after: ZoneState, all: Bool
    ) -> [QuerySubscription] {
        guard !subscriptions.isEmpty else { return [] }
        let readsRecords = subscriptions.contains { $0.predicate != .all }
        var fired = Array(repeating: false, count: subscriptions.count)
        // The request's entries are the log's last ones: walk back to the first before it.
        for entry in after.log.reversed() {
            guard entry.sequence > before.sequence else { break }
            let name = entry.recordName
            let change: (type: String, reason: QuerySubscription.Reason, record: CloudRecord?)
            if let record = after.records[name]?.record {
                let existed = before.records.contains(name)
                change = (record.recordType, existed ? .recordUpdated : .recordCreated, record)
            } else if let tombstone = after.tombstone(named: name, nameHash: entry.nameHash) {
                let was = readsRecords ? before.records[name]?.record : nil
                change = (tombstone.recordType, .recordDeleted, was)
            } else {
                continue
            }
            for (index, subscription) in subscriptions.enumerated() where !fired[index] {
                guard subscription.fires(
                    change.record, recordType: change.type, zone: after.id, reason: change.reason)
                else { continue }
                fired[index] = true
                if !all { return [subscription] }
            }
        }
        return subscriptions.indices.filter { fired[$0] }.map { subscriptions[$0] }
    }

    /// Deletes the `firesOnce` subscriptions a change by `device` fired; their notes.
    func deleteFiredOnce(_ ids: [String], owner: String, device: String) -> [CloudNote] {
        accountStates.change(owner) { state in
            for id in ids { state.querySubscriptions[id] = nil }
        }
        return ids.map {
            CloudNotes.subscriptionDeleted(
                $0, account: owner, scope: .privateDatabase, device: device, reason: "fired-once")
        }
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
