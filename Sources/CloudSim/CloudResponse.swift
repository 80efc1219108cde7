import Kernel

/// `CKAccountStatus`, with CloudKit's raw values ([CKAccountStatus]).
public enum AccountStatus: Int, Hashable, Sendable, CustomStringConvertible {
    case couldNotDetermine = 0
    case available = 1
    case restricted = 2
    case noAccount = 3
    case temporarilyUnavailable = 4

    public var description: String {
        switch self {
        case .couldNotDetermine: return "couldNotDetermine"
        case .available: return "available"
        case .restricted: return "restricted"
        case .noAccount: return "noAccount"
        case .temporarilyUnavailable: return "temporarilyUnavailable"
        }
    }
}

/// Why a database feed reports a zone gone (`CKDatabase.DatabaseChange.Deletion.Reason`).
public enum ZoneDeletionReason: String, Hashable, Sendable {
    case deleted
    /// The user deleted the app's data in iCloud settings (`userDeletedZone` afterwards).
    case purged
    case encryptedDataReset
}

/// A zone the database feed reports deleted.
public struct ZoneDeletion: Hashable, Sendable {
    public var zone: ZoneID
    public var reason: ZoneDeletionReason

    public init(zone: ZoneID, reason: ZoneDeletionReason) {
        self.zone = zone
        self.reason = reason
    }
}

/// A zone of a `modifyZones` request that failed, with its error.
public struct ZoneFailure: Hashable, Sendable {
    public var zone: ZoneID
    public var error: CloudError

    public init(zone: ZoneID, error: CloudError) {
        self.zone = zone
        self.error = error
    }
}

/// The outcome of one item of a modify request.
public enum ItemResult: Hashable, Sendable {
    /// Saved; the server's copy with its new change tag.
    case saved(CloudRecord)
    case deleted(recordName: String)
    case failed(recordName: String, CloudError)
}

/// What the cloud answers to a request.
public enum CloudResponse: Hashable, Sendable {
    /// An operation-level error (nothing was applied), e.g. throttling, outage, token expiry.
    case failure(CloudError)
    case accountStatus(AccountStatus)
    case userRecordID(String)
    /// `CKModifyRecordZonesOperation`: the zones saved and deleted, and the per-zone failures
    /// (a `partialFailure` keyed by zone ID in CloudKit's terms), saves' first, in request order.
    case zonesModified(saved: [ZoneID], deleted: [ZoneID], failed: [ZoneFailure] = [])
    case subscriptionSaved
    case databaseChanges(
        changed: [ZoneID],
        deleted: [ZoneDeletion],
        token: DatabaseChangeToken,
        moreComing: Bool
    )
    /// One page of a zone feed: each record changed since the token once (latest version),
    /// deletions by name and type, the token to persist with them, and whether more follow.
    case zoneChanges(
        records: [CloudRecord],
        deletions: [RecordDeletion],
        token: ZoneChangeToken,
        moreComing: Bool
    )
    /// Per-item results in request order (saves first, then deletes). When any item failed,
    /// CloudKit wraps them in `partialFailure`; `isPartialFailure` tells.
    case recordsModified([ItemResult])
    /// Fetched records by name; names that do not exist come back as `unknownItem` failures.
    case recordsFetched([ItemResult])
    /// The answer to a `.share` request: the share after the step (nil when the client no
    /// longer sees it: stopped, or left), and the records the step wrote in the owner's zone
    /// (the share record; the root when its `share` field changed), as the zone stores them.
    case shareModified(share: ShareInfo?, records: [CloudRecord])
    /// The answer to `.fetchZone`: the zone exists.
    case zoneFetched(ZoneID)
    /// The answer to `.fetchSubscription`: the subscription saved under that ID.
    indirect case subscriptionFetched(QuerySubscription)
    /// The answer to `.fetchSubscription` for a zone or a named database subscription's ID
    /// (one case for both: a payload case more changes `EngineEvent`'s layout, below).
    indirect case namedSubscriptionFetched(Subscription)
    /// The answer to `.fetchAllSubscriptions`: every subscription of the database, by ID.
    case subscriptionsFetched([Subscription])
    /// The answer to `.deleteSubscription`: the subscription of the ID asked for is gone. No
    /// payload: the deleted ID as one grew `EngineEvent` past what the lent-disk path takes
    /// (SyncDataBoxLendingTests), and so does a sixteenth case with a payload.
    case subscriptionDeleted
    /// The answer to `.queryRecords`: one page of matches, and where the next one starts
    /// (nil: no more).
    indirect case recordsQueried([CloudRecord], cursor: QueryCursor?)
    /// The answer to `.lookUpUser` or `.fetchShareMetadata` (one case for both, as above).
    indirect case sharingLookedUp(SharingLookup)

    /// True for a modify answer in which at least one item failed (`partialFailure`, 2).
    public var isPartialFailure: Bool {
        guard case .recordsModified(let results) = self else { return false }
        return results.contains { if case .failed = $0 { return true } else { return false } }
    }
}
