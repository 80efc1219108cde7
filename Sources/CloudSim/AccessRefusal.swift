/// Why the cloud refused a request or an item on access grounds: the `reason` of an
/// `access.refused` note (docs/CLOUDSIM.md lists them).
enum RefusalReason: String, Hashable {
    /// The owner's own zone asked for through the owner's shared database.
    case ownZone = "own-zone"
    /// No share of the zone ever invited the account.
    case notInvited = "not-invited"
    /// Invited, but the invitation is still pending.
    case notAccepted = "not-accepted"
    case removed
    case left
    case shareStopped = "share-stopped"
    case zoneDeleted = "zone-deleted"
    /// A write through a read-only share.
    case readOnly = "read-only"
    /// A record outside every share the account accepted (or a new one placed outside).
    case outsideShare = "outside-share"
    /// A participant deleting the root of a share.
    case rootDelete = "root-delete"
    /// A participant saving a share record.
    case shareOwnerOnly = "share-owner-only"
    /// A share step only the zone's owner may take.
    case notOwner = "not-owner"
    /// A change of a public-database record by an account that did not create it.
    case notCreator = "not-creator"

    init(_ loss: AccessLoss) {
        switch loss {
        case .removed: self = .removed
        case .left: self = .left
        case .shareStopped: self = .shareStopped
        case .zoneDeleted: self = .zoneDeleted
        }
    }
}

/// A refused request or item: the error the client gets and the note the trace gets.
struct AccessRefusal {
    var error: CloudError
    var note: CloudNote

    init(
        _ error: CloudError, reason: RefusalReason, client: CloudClient, zone: ZoneID,
        recordName: String? = nil
    ) {
        self.error = error
        self.note = CloudNotes.accessRefused(
            client: client, zone: zone, reason: reason, recordName: recordName)
    }
}

/// A checked value or the error the check met (`CloudError` is a value, not a Swift
/// `Error`, so `Result` does not fit).
enum CheckResult<Value> {
    case success(Value)
    case failure(CloudError)
}
