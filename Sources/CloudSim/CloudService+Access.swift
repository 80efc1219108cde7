import Kernel

extension CloudService {
    /// The operation-level error a request meets before anything else, if any: outage, then
    /// authentication, then the account's throttle window. Permission comes next
    /// (`foreignPrivateZone`, then each shared-database handler), since a refusal also
    /// leaves a note. `hasAccountState` tells, when there is no error, whether the account's
    /// state exists already (found by the throttle check: `handle` then looks it up no more).
    func operationError(
        for request: CloudRequest, from client: CloudClient, now: SimTime,
        hasAccountState: inout Bool
    ) -> CloudError? {
        if let end = outageEnd, now < end {
            return CloudMessages.serviceUnavailable(retryAfter: end - now)
        }
        if let error = authenticationError(of: client) { return error }
        guard let account = client.account else { preconditionFailure("checked by authentication") }
        let windows = accountStates.peek(account) { ($0.throttleEnd, $0.feedFailureEnd) }
        hasAccountState = windows != nil
        if let end = windows?.0, now < end {
            return CloudMessages.requestRateLimited(retryAfter: end - now)
        }
        if let end = windows?.1, now < end {
            switch request {
            case .fetchDatabaseChanges, .fetchZoneChanges:
                return CloudMessages.serviceUnavailable(retryAfter: end - now)
            default:
                break
            }
        }
        return nil
    }

    /// `notAuthenticated` without a usable account, `accountTemporarilyUnavailable` while the
    /// account is not ready ([CKError.Code]; docs/CLOUDSIM.md *Handling a request*).
    func authenticationError(of client: CloudClient) -> CloudError? {
        guard client.account != nil else { return CloudMessages.notAuthenticated }
        switch client.accountStatus {
        case .available:
            return nil
        case .temporarilyUnavailable:
            return CloudMessages.accountTemporarilyUnavailable
        case .noAccount, .restricted, .couldNotDetermine:
            return CloudMessages.notAuthenticated
        }
    }

    /// The first zone of the private database a request reads or writes that is not the
    /// account's own (a zone ID kept from before an account switch); nil when it names none
    /// (or is not a private-database request).
    ///
    /// The zone, not a rebuilt request: `handle` rebuilds the request only for a foreign zone,
    /// so the common answer is an empty optional of a small value.
    static func foreignPrivateZone(
        in request: CloudRequest, account: String
    ) -> ZoneID? {
        switch request {
        case .modifyZones(.privateDatabase, let save, let delete):
            // Each list in turn: `save + delete` built an array.
            return save.first { $0.owner != account } ?? delete.first { $0.owner != account }
        case .modifyRecords(.privateDatabase, let zone, let saves, _, _, _):
            // A request may span several zones of the database, all of them the account's
            // (the request's zone first, then the saves' in order; no array built).
            return zone.owner != account
                ? zone : saves.first { $0.record.zone.owner != account }?.record.zone
        case .fetchZoneChanges(.privateDatabase, let zone, _, _),
            .fetchRecords(.privateDatabase, let zone, _),
            .fetchZone(.privateDatabase, let zone):
            return zone.owner == account ? nil : zone
        case .saveZoneSubscription(.privateDatabase, let subscription):
            return subscription.zone.owner == account ? nil : subscription.zone
        case .queryRecords(.privateDatabase, let query, _, let cursor):
            let zone = cursor?.query.zone ?? query.zone
            return zone.map { $0.owner == account ? nil : $0 } ?? nil
        case .accountStatus, .fetchUserRecordID, .lookUpUser, .fetchShareMetadata,
            .modifyZones(.sharedDatabase, _, _),
            .saveDatabaseSubscription, .fetchDatabaseChanges,
            .fetchZoneChanges(.sharedDatabase, _, _, _),
            .modifyRecords(.sharedDatabase, _, _, _, _, _), .fetchRecords(.sharedDatabase, _, _),
            .share, .fetchZone(.sharedDatabase, _), .fetchSubscription, .saveQuerySubscription,
            .saveZoneSubscription(.sharedDatabase, _), .queryRecords(.sharedDatabase, _, _, _),
            .saveNamedDatabaseSubscription, .deleteSubscription, .fetchAllSubscriptions,
            .modifyZones(.publicDatabase, _, _), .modifyRecords(.publicDatabase, _, _, _, _, _),
            .fetchZoneChanges(.publicDatabase, _, _, _), .fetchRecords(.publicDatabase, _, _),
            .fetchZone(.publicDatabase, _), .saveZoneSubscription(.publicDatabase, _),
            .queryRecords(.publicDatabase, _, _, _):
            return nil
        }
    }

    /// Nil when the owner zone is in the account's shared database (it accepted a share of
    /// it that still stands); otherwise the refusal with `error` and the reason: `own-zone`,
    /// `not-accepted` (pending), the reason access was lost (`removed`, `left`,
    /// `share-stopped`, `zone-deleted`) or `not-invited`.
    func sharedZoneRefusal(
        _ zone: ZoneID, client: CloudClient, account: String, error: CloudError
    ) -> AccessRefusal? {
        let reason: RefusalReason
        if zone.owner == account {
            reason = .ownZone
        } else if accountStates.peek(account, { $0.hasSharedZone(zone) }) == true {
            return nil
        } else if isPending(account, in: zone) {
            reason = .notAccepted
        } else if let loss = accountStates[account]?.accessLosses[zone] {
            reason = RefusalReason(loss)
        } else {
            reason = .notInvited
        }
        return AccessRefusal(error, reason: reason, client: client, zone: zone)
    }

    /// Whether the account holds a pending invitation to a share of the zone.
    func isPending(_ account: String, in zone: ZoneID) -> Bool {
        guard let state = zoneStates[zone], state.isLive, state.hasShares else { return false }
        let structure = ShareStructure(zone: state)
        return structure.shareNames.contains {
            structure.participant(account, in: $0)?.acceptanceStatus == .pending
        }
    }

    /// Devices to push to after a change to `account`'s private database, sorted, never the
    /// originator (nil for fault actions, which push to every subscribed device).
    func pushTargets(account: String, originator: String?) -> [String] {
        // The list read where it is stored: a method called on the stored state copied it.
        // Reached in place (`modifyValue`, which changes nothing here), not through `peek`:
        // a read through a pointer that calls a function (the subscribers' subscript) was
        // made on a copy of the whole state.
        let devices = accountStates.modifyValue(forKey: account) {
            $0.subscribers[.privateDatabase]
        } ?? nil
        return AccountState.targets(devices ?? [], excluding: originator)
    }

    /// Devices subscribed to the shared databases of `participants`, sorted, without the
    /// originator.
    func sharedPushTargets(_ participants: [String], originator: String?) -> [String] {
        var devices: Set<String> = []
        for participant in participants {
            let targets = accountStates.peek(participant) {
                $0.pushTargets(scope: .sharedDatabase, excluding: originator)
            }
            devices.formUnion(targets ?? [])
        }
        return devices.sorted()
    }
}
