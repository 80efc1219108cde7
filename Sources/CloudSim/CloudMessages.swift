import Kernel

/// Every error the simulated server produces, in one catalogue, with CloudKit's own server
/// messages where they are known (docs/CLOUDSIM.md *Error shapes*).
enum CloudMessages {
    static func serviceUnavailable(retryAfter: SimTime) -> CloudError {
        CloudError(.serviceUnavailable, message: "Service unavailable", retryAfter: retryAfter)
    }

    static func requestRateLimited(retryAfter: SimTime) -> CloudError {
        CloudError(.requestRateLimited, message: "Request rate limited", retryAfter: retryAfter)
    }

    static func zoneBusy(retryAfter: SimTime) -> CloudError {
        CloudError(.zoneBusy, message: "Zone busy", retryAfter: retryAfter)
    }

    static let notAuthenticated = CloudError(
        .notAuthenticated, message: "No iCloud account is signed in")

    static let accountTemporarilyUnavailable = CloudError(
        .accountTemporarilyUnavailable, message: "Account temporarily unavailable")

    static let sharedZoneChange = CloudError(
        .badDatabase, message: "Zones cannot be created or deleted in the shared database")

    static let defaultZoneChange = CloudError(
        .invalidArguments, message: "The default zone cannot be created or deleted")

    static func invalidZoneName(_ name: String) -> CloudError {
        CloudError(.invalidArguments, message: "Zone name '\(name)' is invalid")
    }

    static let defaultZoneHasNoChanges = CloudError(
        .invalidArguments, message: "The default zone does not support fetching changes")

    static let defaultZoneHasNoSharing = CloudError(
        .invalidArguments, message: "The default zone does not support sharing")

    static func zoneNotFound(_ zone: ZoneID) -> CloudError {
        CloudError(.zoneNotFound, message: "Zone '\(zone.name)' does not exist")
    }

    static let userDeletedZone = CloudError(.userDeletedZone, message: "Zone was purged by user")

    static let changeTokenExpired = CloudError(
        .changeTokenExpired, message: "client knowledge differs from server knowledge")

    static func tooManyItems(_ count: Int, maximum: Int) -> CloudError {
        CloudError(
            .limitExceeded,
            message: "Your request contains \(count) items which is more than the maximum number "
                + "of items in a single request (\(maximum))")
    }

    static func requestTooLarge(_ bytes: Int, maximum: Int) -> CloudError {
        CloudError(
            .limitExceeded,
            message: "Your request is \(bytes) bytes which is more than the maximum size of a "
                + "request (\(maximum) bytes)")
    }

    static let recordTooLarge = CloudError(.limitExceeded, message: "record too large")

    /// A new record (no change tag) whose name exists: the ancestor is a record without keys
    /// (Apple: it "may have no keys" for a brand-new instance).
    static func insertCollision(_ server: CloudRecord, client: CloudRecord? = nil) -> CloudError {
        var ancestor: CloudRecord?
        if let client {
            ancestor = CloudRecord(
                recordType: client.recordType, recordName: client.recordName, zone: client.zone)
        }
        return CloudError(
            .serverRecordChanged, message: "record to insert already exists",
            serverRecord: server.withoutAssetContents, clientRecord: client,
            ancestorRecord: ancestor)
    }

    static func oplock(
        _ server: CloudRecord, client: CloudRecord, ancestor: CloudRecord?
    ) -> CloudError {
        CloudError(
            .serverRecordChanged, message: "client oplock error updating record",
            serverRecord: server.withoutAssetContents, clientRecord: client,
            ancestorRecord: ancestor?.withoutAssetContents)
    }

    static let unknownItem = CloudError(.unknownItem, message: "Record not found")

    /// A delete of a record that does not exist, under `missingDeletes = .unknownItem`.
    static func deleteOfMissingRecord(_ name: String) -> CloudError {
        CloudError(.unknownItem, message: "Record '\(name)' to delete does not exist")
    }

    static func recordTypeChange(_ name: String, from old: String, to new: String) -> CloudError {
        CloudError(
            .invalidArguments,
            message: "Record '\(name)' has type '\(old)' and cannot be saved as type '\(new)'")
    }

    static func wrongZone(_ name: String) -> CloudError {
        CloudError(.invalidArguments, message: "Record '\(name)' is not in the request's zone")
    }

    static func duplicate(_ name: String) -> CloudError {
        CloudError(
            .invalidArguments, message: "Record '\(name)' appears more than once in the request")
    }

    static func invalidName(_ what: String) -> CloudError {
        CloudError(.invalidArguments, message: what)
    }

    static func mixedList(_ key: String) -> CloudError {
        CloudError(.invalidArguments, message: "List values of field '\(key)' differ in type")
    }

    /// Development: the first save of a key fixed its type (wording of CloudKit's server).
    static func typeMismatch(
        key: String, recordType: String, sent: String, defined: String
    ) -> CloudError {
        CloudError(
            .invalidArguments,
            message: "invalid attempt to set value type \(sent) for field '\(key)' for type "
                + "'\(recordType)', defined to be: \(defined)")
    }

    static func productionType(_ recordType: String) -> CloudError {
        CloudError(
            .invalidArguments, message: "Cannot create new type \(recordType) in production schema")
    }

    static func productionField(_ key: String, recordType: String) -> CloudError {
        CloudError(
            .invalidArguments,
            message: "Cannot create or modify field '\(key)' in record '\(recordType)' "
                + "in production schema")
    }

    static let quotaExceeded = CloudError(
        .quotaExceeded, message: "The account's iCloud storage is full")

    static func rejected(_ name: String, code: CloudErrorCode) -> CloudError {
        CloudError(code, message: "Record '\(name)' was rejected by the server")
    }

    static func referenceViolation(_ name: String, parent: String) -> CloudError {
        CloudError(
            .referenceViolation,
            message: "Parent '\(parent)' of record '\(name)' was not found")
    }

    static func batchSaveFailed(_ name: String) -> CloudError {
        CloudError(
            .batchRequestFailed,
            message: "Record '\(name)' will not be saved because of previous error in atomic zone")
    }

    static func batchDeleteFailed(_ name: String) -> CloudError {
        CloudError(
            .batchRequestFailed,
            message: "Record '\(name)' will not be deleted because of previous error in atomic zone"
        )
    }
}

// MARK: Sharing ([CKShare], docs/CLOUDSIM.md *Sharing*)

extension CloudMessages {
    /// A write through the shared database to a zone that is not in it (never shared with
    /// the account, not accepted yet, removed, left, stopped, deleted).
    static func notSharedWithAccount(_ zone: ZoneID) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "Zone '\(zone.name)' of account '\(zone.owner)' is not shared with this "
                + "account")
    }

    static func readOnlyShare(_ name: String) -> CloudError {
        CloudError(
            .permissionFailure, message: "Record '\(name)' is shared read-only with this account")
    }

    static func outsideShare(_ name: String) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "Record '\(name)' is not in a share this account can write")
    }

    static func rootDelete(_ name: String) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "Only the owner can delete the root record '\(name)' of a share")
    }

    static func shareOwnerOnly(_ name: String) -> CloudError {
        CloudError(.permissionFailure, message: "Only the owner can modify share '\(name)'")
    }

    static func notOwner(_ zone: ZoneID) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "Only the owner of zone '\(zone.name)' can change its shares")
    }

    static func notInvited(_ share: String) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "This account is not a participant of share '\(share)'")
    }

    static let ownerQuotaExceeded = CloudError(
        .quotaExceeded, message: "The share owner's iCloud storage is full")

    static func shareNotFound(_ target: ShareTarget) -> CloudError {
        CloudError(.unknownItem, message: "Share of \(target) not found")
    }

    static func rootAlreadyShared(_ name: String, share: String) -> CloudError {
        CloudError(
            .alreadyShared, message: "Record '\(name)' is already the root of share '\(share)'")
    }

    static func belowSharedParent(_ name: String, share: String) -> CloudError {
        CloudError(
            .alreadyShared,
            message: "Record '\(name)' is below the root of share '\(share)' and holds a root "
                + "of its own")
    }

    static func aboveSharedChild(_ name: String) -> CloudError {
        CloudError(
            .alreadyShared,
            message: "Record '\(name)' has a record below it that is the root of another share")
    }

    static func zoneSharedWhole(_ zone: ZoneID) -> CloudError {
        CloudError(
            .serverRejectedRequest,
            message: "Zone '\(zone.name)' is shared as a whole and cannot hold a hierarchy share")
    }

    static func zoneHasHierarchyShares(_ zone: ZoneID) -> CloudError {
        CloudError(
            .invalidArguments,
            message: "Zone '\(zone.name)' holds hierarchy shares and cannot be shared as a whole")
    }

    static func shareWithoutRoot(_ share: String) -> CloudError {
        CloudError(
            .invalidArguments,
            message: "Share '\(share)' must be saved together with its root record")
    }

    static func shareReferenceMissing(_ name: String, share: String) -> CloudError {
        CloudError(
            .referenceViolation, message: "Share '\(share)' of record '\(name)' was not found")
    }

    static func participantAlreadyInvited(_ account: String, share: String) -> CloudError {
        CloudError(
            .participantAlreadyInvited,
            message: "Account '\(account)' is already a participant of share '\(share)'")
    }

    static func tooManyParticipants(maximum: Int) -> CloudError {
        CloudError(
            .tooManyParticipants, message: "A share has at most \(maximum) participants")
    }

    static func notAParticipant(_ account: String, share: String) -> CloudError {
        CloudError(
            .invalidArguments,
            message: "Account '\(account)' is not a participant of share '\(share)'")
    }

    static let ownerIsParticipant = CloudError(
        .invalidArguments, message: "The owner is a participant of every share of its zones")

    static let invalidRole = CloudError(
        .invalidArguments, message: "A participant is invited as privateUser or administrator")

    static func rolesAreOwners(_ share: String) -> CloudError {
        CloudError(
            .permissionFailure,
            message: "Only the owner of share '\(share)' gives or takes the administrator role")
    }

    static let invalidPermission = CloudError(
        .invalidArguments, message: "A participant is invited read-only or read-write")

    static func shareAsRoot(_ name: String) -> CloudError {
        CloudError(
            .invalidArguments, message: "Share '\(name)' cannot be the root of another share")
    }
}

extension CloudRecord {
    /// The record as `serverRecordChanged` carries it: asset contents are not sent
    /// (docs/CLOUDSIM.md modifyRecords 3.6), so every asset value, also inside lists, is an
    /// empty asset.
    var withoutAssetContents: CloudRecord {
        var copy = self
        for key in sortedKeys {
            copy.fields[key] = fields[key]?.withoutAssetContents
        }
        return copy
    }
}

extension CloudValue {
    var withoutAssetContents: CloudValue {
        switch self {
        case .asset: return .asset([])
        case .list(let values): return .list(values.map(\.withoutAssetContents))
        default: return self
        }
    }
}
