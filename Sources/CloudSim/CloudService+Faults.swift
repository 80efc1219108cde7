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

    /// `quota ACCOUNT full|ok`: while full, every save fails `quotaExceeded`; deletes succeed.
    public func setQuotaFull(account: String, _ full: Bool) {
        ensureAccount(account)
        accountStates[account]?.isQuotaFull = full
    }

    /// `delete-zone ACCOUNT`: the app zone is deleted as by another device (reason deleted).
    /// Pushes go to every subscribed device of the account; nothing happens when the zone
    /// does not exist.
    public func deleteZone(account: String, now: SimTime) -> CloudOutcome {
        removeAppZone(of: account, reason: .deleted)
    }

    /// `user-delete-zone ACCOUNT`: purged in settings; `userDeletedZone` until re-created.
    public func userDeleteZone(account: String, now: SimTime) -> CloudOutcome {
        removeAppZone(of: account, reason: .purged)
    }

    private func removeAppZone(of account: String, reason: ZoneDeletionReason) -> CloudOutcome {
        ensureAccount(account)
        let zone = appZone(of: account)
        guard zoneStates[zone]?.isLive == true else {
            return CloudOutcome(
                response: .zonesModified(saved: [], deleted: []),
                notes: [CloudNotes.zoneDeleteSkipped(zone, reason: reason)])
        }
        let removal = removeZone(zone, reason: reason, by: CloudNotes.cloudActor)
        let pushes = Set(
            pushTargets(account: account, originator: nil)
                + sharedPushTargets(removal.participants, originator: nil))
        return CloudOutcome(
            response: .zonesModified(saved: [], deleted: [zone]),
            pushes: pushes.sorted(),
            notes: removal.notes)
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

    /// `deploy-schema`: copies the development schema to production (additive only).
    public func deploySchema() {
        productionSchema.merge(developmentSchema)
    }
}
