/// Query subscriptions of the public database ([CKQuerySubscription]): each belongs to the
/// account that saved it ("a subscription applies only to the user that creates it"), and a
/// change any account makes there pushes to the devices of each account whose subscription
/// it fires, never to the device that made it. Database and zone subscriptions are refused
/// there (CloudService+PublicDatabase.swift).
extension CloudService {
    func savePublicSubscription(
        _ subscription: QuerySubscription, client: CloudClient, account: String
    ) -> CloudOutcome {
        if let part = subscription.predicate.unsupportedPart {
            return Self.failure(CloudMessages.unsupportedPredicate(part))
        }
        var subscription = subscription
        if let zone = subscription.zone {
            guard zone.isDefaultZone else { return Self.failure(Self.publicZoneMissing(zone)) }
            subscription.zone = .publicZone
        }
        publicDatabase.subscriptions[account, default: [:]][subscription.id] = subscription
        publicDatabase.register(client.device, account: account)
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNote(
                    kind: "subscription.saved",
                    details: [
                        NoteField("account", account),
                        NoteField("scope", DatabaseScope.publicDatabase.rawValue),
                        NoteField("device", client.device),
                        NoteField("subscription", subscription.id),
                        NoteField("recordType", subscription.recordType),
                    ])
            ])
    }

    func fetchPublicSubscription(
        _ id: String, client: CloudClient, account: String
    ) -> CloudOutcome {
        publicDatabase.register(client.device, account: account)
        guard let subscription = publicDatabase.subscriptions[account]?[id] else {
            return Self.failure(CloudMessages.unknownSubscription(id))
        }
        return CloudOutcome(response: .subscriptionFetched(subscription))
    }

    func deletePublicSubscription(
        _ id: String, client: CloudClient, account: String
    ) -> CloudOutcome {
        guard publicDatabase.subscriptions[account]?.removeValue(forKey: id) != nil else {
            return Self.failure(CloudMessages.unknownSubscription(id))
        }
        return CloudOutcome(
            response: .subscriptionDeleted,
            notes: [
                CloudNotes.subscriptionDeleted(
                    id, account: account, scope: .publicDatabase, device: client.device,
                    reason: "deleted")
            ])
    }

    /// The pushes a stored change of the public zone gives: per account (sorted), its
    /// subscriptions the change fires; the devices of those accounts but `device`, sorted,
    /// and the notes of the `firesOnce` ones it deleted.
    func publicQueryPushes(
        before: ZoneState, after: ZoneState, device: String
    ) -> (targets: [String], notes: [CloudNote]) {
        let changes = Self.publicChanges(before: before, after: after)
        guard !changes.isEmpty else { return ([], []) }
        var targets: Set<String> = []
        var notes: [CloudNote] = []
        for account in publicDatabase.subscriptions.keys.sorted() {
            let fired = publicDatabase.subscriptions(of: account).filter { subscription in
                changes.contains {
                    subscription.fires($0.record, recordType: $0.type, zone: after.id,
                        reason: $0.reason)
                }
            }
            guard !fired.isEmpty else { continue }
            targets.formUnion(publicDatabase.devices[account, default: []].subtracting([device]))
            for once in fired where once.firesOnce {
                publicDatabase.subscriptions[account]?[once.id] = nil
                notes.append(CloudNotes.subscriptionDeleted(
                    once.id, account: account, scope: .publicDatabase, device: device,
                    reason: "fired-once"))
            }
        }
        return (targets.sorted(), notes)
    }

    /// The records the request wrote or deleted (cascades included), as its entries of the
    /// zone's log show them: the record as saved, or as it was before its deletion.
    private static func publicChanges(
        before: ZoneState, after: ZoneState
    ) -> [(type: String, reason: QuerySubscription.Reason, record: CloudRecord?)] {
        var changes: [(type: String, reason: QuerySubscription.Reason, record: CloudRecord?)] = []
        for entry in after.log.reversed() {
            guard entry.sequence > before.sequence else { break }
            let name = entry.recordName
            if let record = after.records[name]?.record {
                let existed = before.records.contains(name)
                changes.append((record.recordType, existed ? .recordUpdated : .recordCreated,
                    record))
            } else if let tombstone = after.tombstone(named: name, nameHash: entry.nameHash) {
                changes.append((tombstone.recordType, .recordDeleted,
                    before.records[name]?.record))
            }
        }
        return changes
    }

    /// The account's query subscriptions of the public database, sorted by ID (inspection).
    public func publicSubscriptions(of account: String) -> [QuerySubscription] {
        publicDatabase.subscriptions(of: account)
    }
}
