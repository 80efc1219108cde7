extension CloudService {
    /// `CKModifyRecordZonesOperation`: saves are idempotent upserts (a missing zone is created
    /// as a new incarnation), deletes remove the zone with all its records.
    func modifyZones(
        scope: DatabaseScope, save: [ZoneID], delete: [ZoneID], client: CloudClient, account: String
    ) -> CloudOutcome {
        guard scope == .privateDatabase else {
            return CloudOutcome(response: .failure(CloudMessages.sharedZoneChange))
        }
        var notes: [CloudNote] = []
        var participants: [String] = []
        var saved: [ZoneID] = []
        var deleted: [ZoneID] = []
        var failed: [ZoneFailure] = []
        for zone in save {
            precondition(zone.owner == account, "permission was checked")
            if let error = zone.zoneChangeError {
                failed.append(ZoneFailure(zone: zone, error: error))
                continue
            }
            if let note = createZoneIfMissing(zone, by: client.device) { notes.append(note) }
            saved.append(zone)
        }
        for zone in delete {
            if let error = zone.zoneChangeError {
                failed.append(ZoneFailure(zone: zone, error: error))
            } else if zoneStates[zone]?.isLive != true {
                // Deleting a zone that does not exist fails for that zone (CLOUDSIM.md).
                failed.append(ZoneFailure(zone: zone, error: missingZoneError(zone)))
            } else {
                let removal = removeZone(zone, reason: .deleted, by: client.device)
                notes += removal.notes
                participants += removal.participants
                deleted.append(zone)
            }
        }
        var pushes = notes.isEmpty ? [] : pushTargets(account: account, originator: client.device)
        if !participants.isEmpty {
            pushes = Set(pushes + sharedPushTargets(participants, originator: client.device))
                .sorted()
        }
        return CloudOutcome(
            response: .zonesModified(saved: saved, deleted: deleted, failed: failed),
            pushes: pushes, notes: notes)
    }

    /// Creates a zone that is not live (never created, deleted or purged); nil when it is.
    func createZoneIfMissing(_ zone: ZoneID, by actor: String) -> CloudNote? {
        var state = zoneStates[zone] ?? ZoneState(id: zone)
        guard !state.isLive else { return nil }
        state.create()
        zoneStates[zone] = state
        ensureAccount(zone.owner)
        accountStates[zone.owner]?.noteZoneChanged(zone)
        return CloudNotes.zoneCreated(zone, incarnation: state.incarnation, by: actor)
    }

    /// Removes a live zone with its records and records the deletion in the owner's feed;
    /// the zone leaves the shared database of every participant (`participants`, sorted).
    func removeZone(
        _ zone: ZoneID, reason: ZoneDeletionReason, by actor: String
    ) -> (notes: [CloudNote], participants: [String]) {
        guard var state = zoneStates[zone], state.isLive else {
            preconditionFailure("removing zone \(zone) that is not live")
        }
        let recordCount = state.records.count
        state.remove(purged: reason == .purged)
        zoneStates[zone] = state
        ensureAccount(zone.owner)
        accountStates[zone.owner]?.noteZoneDeleted(zone, reason: reason)
        let note = CloudNotes.zoneDeleted(zone, reason: reason, records: recordCount, by: actor)
        let shared = refreshSharedViews(of: zone, losses: [:])
        return ([note] + shared.notes, shared.changed)
    }

    /// Records the device as holding a database subscription (idempotent).
    func saveDatabaseSubscription(
        scope: DatabaseScope, client: CloudClient, account: String
    ) -> CloudOutcome {
        accountStates[account]?.subscribers[scope, default: []].insert(client.device)
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNotes.subscriptionSaved(account: account, scope: scope, device: client.device)
            ])
    }

    /// `CKFetchDatabaseChangesOperation`, in one answer (`moreComing` is always false).
    ///
    /// A zone deleted and created again since the token is reported in both lists: its
    /// deletion tells the client to drop what it had, its change to fetch the new life.
    /// Clients apply `deleted` before `changed`.
    func fetchDatabaseChanges(
        scope: DatabaseScope, token: DatabaseChangeToken?, account: String
    ) -> CloudOutcome {
        guard let state = accountStates[account] else { preconditionFailure("account ensured") }
        let isPrivate = scope == .privateDatabase
        let current = isPrivate ? state.databaseSequence : state.sharedDatabaseSequence
        if let token {
            let valid =
                token.account == account && token.scope == scope
                && token.epoch == state.tokenEpoch && token.sequence <= current
            guard valid else {
                return CloudOutcome(response: .failure(CloudMessages.changeTokenExpired))
            }
        }
        let newToken = DatabaseChangeToken(
            account: account, scope: scope, sequence: current, epoch: state.tokenEpoch)
        // The shared database holds the owner zones the account accepted a share of.
        let feed = isPrivate ? state.zoneFeed : state.sharedZoneFeed
        var changed: [ZoneID] = []
        var deleted: [ZoneDeletion] = []
        for zone in feed.keys.sorted() {
            guard let entry = feed[zone] else { continue }
            let isLive = isPrivate ? zoneStates[zone]?.isLive == true : state.hasSharedZone(zone)
            guard let after = token?.sequence else {
                if isLive { changed.append(zone) }
                continue
            }
            if let deletion = entry.lastDeletion, deletion.sequence > after {
                deleted.append(ZoneDeletion(zone: zone, reason: deletion.reason))
            }
            if isLive && entry.lastChangeSequence > after { changed.append(zone) }
        }
        return CloudOutcome(
            response: .databaseChanges(
                changed: changed, deleted: deleted, token: newToken, moreComing: false))
    }
}
