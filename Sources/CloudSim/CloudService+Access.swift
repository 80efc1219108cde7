import Kernel

extension CloudService {
    /// The operation-level error a request meets before its own checks, if any: outage,
    /// then authentication, then the account's throttle window, then permission.
    func operationError(
        for request: CloudRequest, from client: CloudClient, now: SimTime
    ) -> CloudError? {
        if let end = outageEnd, now < end {
            return CloudMessages.serviceUnavailable(retryAfter: end - now)
        }
        if let error = authenticationError(of: client) { return error }
        guard let account = client.account else { preconditionFailure("checked by authentication") }
        if let end = accountStates[account]?.throttleEnd, now < end {
            return CloudMessages.requestRateLimited(retryAfter: end - now)
        }
        return permissionError(for: request, account: account)
    }

    /// `notAuthenticated` without a usable account, `accountTemporarilyUnavailable` while the
    /// account is not ready (CLOUDKIT.md section 12).
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

    /// A device signed into one account can never read or write another account's private
    /// database; writes to the shared database are refused while sharing is not modelled.
    func permissionError(for request: CloudRequest, account: String) -> CloudError? {
        switch request {
        case .modifyZones(.privateDatabase, let save, let delete):
            let foreign = (save + delete).first { $0.owner != account }
            return foreign.map(CloudMessages.otherAccount)
        case .fetchZoneChanges(.privateDatabase, let zone, _, _),
            .modifyRecords(.privateDatabase, let zone, _, _, _, _),
            .fetchRecords(.privateDatabase, let zone, _):
            return zone.owner == account ? nil : CloudMessages.otherAccount(zone)
        case .modifyRecords(.sharedDatabase, _, _, _, _, _):
            return CloudMessages.sharedWrite
        case .accountStatus, .fetchUserRecordID, .modifyZones(.sharedDatabase, _, _),
            .saveDatabaseSubscription, .fetchDatabaseChanges,
            .fetchZoneChanges(.sharedDatabase, _, _, _), .fetchRecords(.sharedDatabase, _, _):
            return nil
        }
    }

    /// Devices to push to after a change to `account`'s private database, sorted, never the
    /// originator (nil for fault actions, which push to every subscribed device).
    func pushTargets(account: String, originator: String?) -> [String] {
        accountStates[account]?.pushTargets(scope: .privateDatabase, excluding: originator) ?? []
    }
}
