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
        accountStates.change(zone.owner) { $0.noteZoneChanged(zone) }
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
        state.remove(purged: reason == .purged, encryptedDataReset: reason == .encryptedDataReset)
        zoneStates[zone] = state
        ensureAccount(zone.owner)
        accountStates.change(zone.owner) { $0.noteZoneDeleted(zone, reason: reason) }
        let note = CloudNotes.zoneDeleted(zone, reason: reason, records: recordCount, by: actor)
        let shared = refreshSharedViews(of: zone, losses: [:])
        return ([note] + shared.notes, shared.changed)
    }

    /// Records the device as holding a database subscription (idempotent).
    func saveDatabaseSubscription(
        scope: DatabaseScope, client: CloudClient, account: String
    ) -> CloudOutcome {
        accountStates.change(account) { $0.subscribe(client.device, scope: scope) }
        return CloudOutcome(
            response: .subscriptionSaved,
            notes: [
                CloudNotes.subscriptionSaved(account: account, scope: scope, device: client.device)
            ])
    }

    /// `CKFetchDatabaseChangesOperation`, one page of at most `databaseChangesPageSize` zone
    /// entries in feed order; `moreComing` when more are left.
    ///
    /// A zone deleted and created again since the token is reported in both lists: its
    /// deletion tells the client to drop what it had, its change to fetch the new life.
    /// Clients apply `deleted` before `changed`.
    func fetchDatabaseChanges(
        scope: DatabaseScope, token: DatabaseChangeToken?, account: String, client: CloudClient
    ) -> CloudOutcome {
        let isPrivate = scope == .privateDatabase
        // Read where the state is stored: copying it out retained every reference it holds.
        guard let head = accountStates.peek(account, { state in
            (epoch: state.tokenEpoch,
             current: isPrivate ? state.databaseSequence : state.sharedDatabaseSequence)
        }) else { preconditionFailure("account ensured") }
        let current = head.current
        if let token {
            let valid =
                token.account == account && token.scope == scope
                && token.epoch == head.epoch && token.sequence <= current
            guard valid else {
                if isPrivate { forgoFirstTokenlessFetches(of: account, by: client.device) }
                return CloudOutcome(response: .failure(CloudMessages.changeTokenExpired))
            }
            if token.sequence == current {
                // Every entry of the feed carries a sequence at or below the current one:
                // nothing after the token, and no feed walked (most fetches of a sweep).
                let newToken = DatabaseChangeToken(
                    account: account, scope: scope, sequence: current, epoch: head.epoch)
                return CloudOutcome(
                    response: .databaseChanges(
                        changed: [], deleted: [], token: newToken, moreComing: false))
            }
        }
        let hasToken = if case .some = token { true } else { false }
        // One page: at most `databaseChangesPageSize` entries; the token resumes after them.
        // Most fetches find fewer changes: the page is all of them, listed in one walk of the
        // feed, with no list of events made, sorted and cut.
        let pageSize = max(1, configuration.databaseChangesPageSize)
        if let page = wholePage(
            account: account, isPrivate: isPrivate, after: token?.sequence ?? 0,
            hasToken: hasToken, limit: pageSize)
        {
            let newToken = DatabaseChangeToken(
                account: account, scope: scope, sequence: current, epoch: head.epoch)
            return CloudOutcome(response: .databaseChanges(
                changed: page.changed, deleted: page.deleted, token: newToken, moreComing: false))
        }
        var events = feedEvents(
            account: account, isPrivate: isPrivate, after: token?.sequence ?? 0,
            hasToken: hasToken)
        if events.count > 1 { events.sort { ($0.sequence, $0.zone) < ($1.sequence, $1.zone) } }
        let pageCount = min(pageSize, events.count)
        let moreComing = events.count > pageCount
        let sequence = moreComing && pageCount > 0 ? events[pageCount - 1].sequence : current
        let newToken = DatabaseChangeToken(
            account: account, scope: scope, sequence: sequence, epoch: head.epoch)
        // Both lists in one walk of the page, then sorted by zone: one pass on every fetch,
        // not a filter, a map and a compact map building an array each.
        var changed: [ZoneID] = []
        var deleted: [ZoneDeletion] = []
        for position in 0..<pageCount {
            if let reason = events[position].deletion {
                deleted.append(ZoneDeletion(zone: events[position].zone, reason: reason))
            } else {
                changed.append(events[position].zone)
            }
        }
        // A list of fewer than two is sorted already: sorting the empty literal made a new
        // buffer for it, on most fetches.
        if changed.count > 1 { changed.sort() }
        if deleted.count > 1 { deleted.sort { $0.zone < $1.zone } }
        return CloudOutcome(
            response: .databaseChanges(
                changed: changed, deleted: deleted, token: newToken, moreComing: moreComing))
    }

    /// A database feed entry after a token: its sequence, the zone, and the deletion's reason
    /// when it is one.
    typealias FeedEvent = (sequence: Int64, zone: ZoneID, deletion: ZoneDeletionReason?)

    /// The changed and deleted zones of `fetchDatabaseChanges`'s page (each list sorted by
    /// zone) when every change after `after` fits in one page of `limit`; nil when more do.
    private func wholePage(
        account: String, isPrivate: Bool, after: Int64, hasToken: Bool, limit: Int
    ) -> (changed: [ZoneID], deleted: [ZoneDeletion])? {
        var changed: [ZoneID] = []
        var deleted: [ZoneDeletion] = []
        // Each zone once in each list, then sorted: the feed's order does not show, and
        // whether the changes outnumber the page does not depend on it.
        let complete = forEachFeedEvent(
            account: account, isPrivate: isPrivate, after: after, hasToken: hasToken
        ) { _, zone, deletion in
            if let deletion {
                deleted.append(ZoneDeletion(zone: zone, reason: deletion))
            } else {
                changed.append(zone)
            }
            return changed.count + deleted.count <= limit
        }
        guard complete else { return nil }
        if changed.count > 1 { changed.sort() }
        if deleted.count > 1 { deleted.sort { $0.zone < $1.zone } }
        return (changed, deleted)
    }

    /// Every change of the account's database feed after `after`, in feed order; without a
    /// token (`hasToken` false, computed once, not as `token != nil`, which copies the token
    /// into a pair of optionals for every zone) the live zones only.
    private func feedEvents(
        account: String, isPrivate: Bool, after: Int64, hasToken: Bool
    ) -> [FeedEvent] {
        var events: [FeedEvent] = []
        _ = forEachFeedEvent(
            account: account, isPrivate: isPrivate, after: after, hasToken: hasToken
        ) { sequence, zone, deletion in
            events.append((sequence, zone, deletion))
            return true
        }
        return events
    }

    /// Calls `body` with each change of the account's database feed after `after` (as
    /// `feedEvents` lists them), in feed order, until it returns false; returns whether it
    /// never did.
    private func forEachFeedEvent(
        account: String, isPrivate: Bool, after: Int64, hasToken: Bool,
        _ body: (_ sequence: Int64, _ zone: ZoneID, _ deletion: ZoneDeletionReason?) -> Bool
    ) -> Bool {
        // The shared database holds the owner zones the account accepted a share of.
        guard let feeds = accountStates.peek(account, { state in
            (feed: isPrivate ? state.zoneFeed : state.sharedZoneFeed, views: state.sharedViews)
        }) else { preconditionFailure("account ensured") }
        let (feed, sharedViews) = feeds
        // Every change after the token as (sequence, zone, deletion?), in feed order; a nil
        // token lists the live zones only.
        for (zone, entry) in feed { // tidy: ordered (the callers sort by zone or sequence)
            if hasToken, let deletion = entry.lastDeletion, deletion.sequence > after {
                guard body(deletion.sequence, zone, deletion.reason) else { return false }
            }
            // Whether the zone is live only matters for a change after the token: a zone
            // unchanged since is not looked up, so its ID is not hashed on every fetch.
            guard entry.lastChangeSequence > after else { continue }
            let isLive = isPrivate
                ? zoneStates.peek(zone) { $0.isLive } == true
                : sharedViews[zone]?.isLive == true
            if isLive {
                guard body(entry.lastChangeSequence, zone, nil) else { return false }
            }
        }
        return true
    }
}
