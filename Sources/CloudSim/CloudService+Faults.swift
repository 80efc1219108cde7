import Kernel

// MARK: Scripted faults (the `cloud:` actions of the scenario format)

extension CloudService {
    /// `throttle ACCOUNT for D`: every request of the account fails `requestRateLimited`
    /// with retry-after = the rest of the window. A new window replaces the previous one.
    public func throttle(account: String, until end: SimTime) {
        ensureAccount(account)
        accountStates[account]?.throttleEnd = end
    }

    /// `throttle ACCOUNT next-upload N records retry-after D`: the next `modifyRecords` of the
    /// account that reaches its records with at least one save fails its first N saves (request
    /// order) with `requestRateLimited` carrying `retryAfter`; then the fault is used up.
    public func throttleNextUpload(account: String, records count: Int, retryAfter: SimTime) {
        precondition(count >= 0, "a record count is not negative")
        ensureAccount(account)
        accountStates[account]?.partialThrottle =
            count == 0 ? nil : PartialThrottle(recordCount: count, retryAfter: retryAfter)
    }

    /// `throttle ACCOUNT next-upload N deletes retry-after D` (a SyncLab addition): the next
    /// `modifyRecords` of the account with at least one delete that reaches its items fails
    /// its first N deletes (request order, after duplicates and access refusals) with a
    /// per-item `requestRateLimited` carrying `retryAfter` ([CKError] `requestRateLimited`:
    /// retry after `retryAfterSeconds`; per item inside a partial failure); then it is used
    /// up. 0 clears it.
    public func throttleNextDeletes(account: String, records count: Int, retryAfter: SimTime) {
        precondition(count >= 0, "a record count is not negative")
        ensureAccount(account)
        accountStates[account]?.deleteThrottle =
            count == 0 ? nil : PartialThrottle(recordCount: count, retryAfter: retryAfter)
    }

    /// The zone is busy until `end` ([CKError.Code] `zoneBusy`: "retry after a few seconds",
    /// honouring the retry-after): every zone fetch of it (`fetchZoneChanges`, by the owner or
    /// through a participant's shared database) fails `zoneBusy` with retry-after = the rest
    /// of the window, after the access checks. Other requests are not affected.
    public func zoneBusy(_ zone: ZoneID, until end: SimTime) {
        ensureAccount(zone.owner)
        accountStates[zone.owner]?.busyZones[zone] = end
    }

    /// `quota ACCOUNT full|ok`: while full, every save fails `quotaExceeded`; deletes succeed.
    public func setQuotaFull(account: String, _ full: Bool) {
        ensureAccount(account)
        accountStates[account]?.isQuotaFull = full
    }

    /// `delete-zone ACCOUNT`: every custom zone of the account's private database is deleted
    /// as by another device (reason `deleted`), whichever zones the engine named. Pushes go to
    /// every subscribed device; with no live custom zone nothing happens (`zone.delete-skipped`
    /// names the app zone).
    public func deleteZone(account: String, now: SimTime) -> CloudOutcome {
        deleteZones(account: account, reason: .deleted, now: now)
    }

    /// `user-delete-zone ACCOUNT`: the user deleted the app's data in settings: every custom
    /// zone is purged; `userDeletedZone` until a device saves it again.
    public func userDeleteZone(account: String, now: SimTime) -> CloudOutcome {
        deleteZones(account: account, reason: .purged, now: now)
    }

    /// `reset-encrypted-data ACCOUNT` (a SyncLab addition): the user reset their encrypted
    /// data (account recovery), so CloudKit deleted every custom zone of the account's private
    /// database; the database feed reports each with the reason `encryptedDataReset`, later
    /// requests on it answer `zoneNotFound` with `userDidResetEncryptedData`, and a device may
    /// create it again and upload its local copy ([CKFetchDatabaseChangesOperation],
    /// [CKError] `zoneNotFound`; docs/CLOUDSIM.md *Faults*).
    public func resetEncryptedData(account: String, now: SimTime) -> CloudOutcome {
        deleteZones(account: account, reason: .encryptedDataReset, now: now)
    }

    /// Deletes every live custom zone of the account's private database, in `ZoneID` order,
    /// for `reason`, as the cloud (no originator: every subscribed device gets a push, each
    /// once). The default zone is never deleted ([CKRecordZone] `default()`). With no live
    /// custom zone: a `zone.delete-skipped` note naming the app zone, nothing else.
    public func deleteZones(
        account: String, reason: ZoneDeletionReason, now: SimTime
    ) -> CloudOutcome {
        ensureAccount(account)
        let zones = zones(of: account).filter { !$0.isDefaultZone }
        guard !zones.isEmpty else {
            return CloudOutcome(
                response: .zonesModified(saved: [], deleted: []),
                notes: [CloudNotes.zoneDeleteSkipped(appZone(of: account), reason: reason)])
        }
        return removeZonesAsCloud(zones, account: account, reason: reason)
    }

    /// The zone faults on one named zone (`delete-zone ACCOUNT zone NAME` or `collection
    /// LABEL`, SyncLab additions): the zone is deleted for `reason` as by the cloud; a zone
    /// that is not live, or the default zone, is skipped (`zone.delete-skipped`).
    public func deleteZone(
        _ zone: ZoneID, reason: ZoneDeletionReason, now: SimTime
    ) -> CloudOutcome {
        ensureAccount(zone.owner)
        guard !zone.isDefaultZone, zoneStates[zone]?.isLive == true else {
            return CloudOutcome(
                response: .zonesModified(saved: [], deleted: []),
                notes: [CloudNotes.zoneDeleteSkipped(zone, reason: reason)])
        }
        return removeZonesAsCloud([zone], account: zone.owner, reason: reason)
    }

    private func removeZonesAsCloud(
        _ zones: [ZoneID], account: String, reason: ZoneDeletionReason
    ) -> CloudOutcome {
        var notes: [CloudNote] = []
        var participants: [String] = []
        for zone in zones {
            let removal = removeZone(zone, reason: reason, by: CloudNotes.cloudActor)
            notes += removal.notes
            participants += removal.participants
        }
        let pushes = Set(
            pushTargets(account: account, originator: nil)
                + sharedPushTargets(participants.sorted(), originator: nil))
        return CloudOutcome(
            response: .zonesModified(saved: [], deleted: zones),
            pushes: pushes.sorted(),
            notes: notes)
    }

    /// `expire-tokens ACCOUNT`: every token handed out so far fails `changeTokenExpired`.
    public func expireTokens(account: String) {
        ensureAccount(account)
        accountStates[account]?.tokenEpoch += 1
    }

    /// `outage for D`: every request fails `serviceUnavailable`, retry-after = the rest.
    public func outage(until end: SimTime) {
        outageEnd = end
    }

    /// `fail-downloads ACCOUNT for D` (a SyncLab addition): the account's change feeds
    /// (database and zone changes) fail with `serviceUnavailable` and the rest of the window
    /// as retry-after, while uploads and record fetches work — a download that fails (SYNC-6).
    public func failDownloads(account: String, until end: SimTime) {
        ensureAccount(account)
        accountStates[account]?.feedFailureEnd = end
    }

    /// `reject LABEL with CODE`: saves of that record fail until `accept`.
    public func reject(recordName: String, account: String, with code: CloudErrorCode) {
        ensureAccount(account)
        accountStates[account]?.rejectedRecords[recordName] = code
    }

    /// `accept LABEL`.
    public func accept(recordName: String, account: String) {
        ensureAccount(account)
        accountStates[account]?.rejectedRecords[recordName] = nil
    }

    /// `environment development|production`.
    public func setEnvironment(_ environment: CloudEnvironment) {
        configuration.environment = environment
    }

    /// `cloud: missing-deletes …`: how deletes of records that do not exist are answered from
    /// now on.
    public func setMissingDeletes(_ answer: MissingDeleteAnswer) {
        configuration.missingDeletes = answer
    }

    /// `cloud: child-saves …`: whether a child's save gives its parent a new change tag from
    /// now on (`CloudConfiguration.childSaveChangesParentTag`).
    public func setChildSaveChangesParentTag(_ on: Bool) {
        configuration.childSaveChangesParentTag = on
    }

    /// `deploy-schema`: copies the development schema to production (additive only).
    public func deploySchema() {
        productionSchema.merge(developmentSchema)
    }
}
