/// The notes the cloud writes to the trace, in one catalogue so their kinds and detail keys
/// stay stable (docs/CLOUDSIM.md lists them).
enum CloudNotes {
    /// `zoneName` is `record.zone.description`, rendered once for a request's saves.
    static func recordSaved(
        _ record: CloudRecord, zoneName: String, changedKeys: [String], policy: SavePolicy,
        device: String
    )
        -> CloudNote
    {
        CloudNote(
            kind: "record.saved",
            details: [
                NoteField("zone", zoneName),
                NoteField("recordName", record.recordName),
                NoteField("recordType", record.recordType),
                NoteField(
                    "changedKeys",
                    TextConcatenation.joined(changedKeys, separator: UInt8(ascii: ","))),
                NoteField("policy", policy.name),
                NoteField("changeTag", record.changeTag ?? ""),
                NoteField("device", device),
            ])
    }

    /// A save under `changedKeys`/`allKeys` that brought a deleted record back, with the keys
    /// it wrote (a fact, not traced: `writtenKeys`). Neutral: which rule or weakness this is
    /// (LIM-1 for `sds`: only the edited keys come back) is the engine profile's call
    /// (docs/CLOUDSIM.md, *Notes*).
    static func recordRecreated(
        _ record: CloudRecord, policy: SavePolicy, writtenKeys: [String], device: String
    ) -> CloudNote {
        CloudNote(
            kind: "record.recreated", details: savedDetails(record, policy: policy, device: device),
            facts: [
                NoteField(
                    "writtenKeys",
                    TextConcatenation.joined(writtenKeys, separator: UInt8(ascii: ",")))
            ])
    }

    /// A save without a change tag (a new record, as the client knows it) of a name whose
    /// record was deleted and not written since: CloudKit creates it as new. Neutral: an
    /// insert sent again after its answer was lost, over another device's deletion, is a race
    /// for some engines (`outbox` → OBXW-2), an identity record created again for others.
    static func recordCreatedOverTombstone(
        _ record: CloudRecord, policy: SavePolicy, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "record.created-over-tombstone",
            details: savedDetails(record, policy: policy, device: device))
    }

    /// The details of a note about one saved record: zone, name, device, policy.
    private static func savedDetails(
        _ record: CloudRecord, policy: SavePolicy, device: String
    ) -> [NoteField] {
        [
            NoteField("zone", record.zone.description),
            NoteField("recordName", record.recordName),
            NoteField("device", device),
            NoteField("policy", policy.name),
        ]
    }

    /// `childSaveChangesParentTag`: a child's save gave its parent a new change tag.
    static func parentTouched(_ parent: CloudRecord, child: String) -> CloudNote {
        CloudNote(
            kind: "record.parent-touched",
            details: [
                NoteField("zone", parent.zone.description),
                NoteField("recordName", parent.recordName),
                NoteField("child", child),
                NoteField("changeTag", parent.changeTag ?? ""),
            ])
    }

    static func recordDeleted(_ record: CloudRecord, device: String) -> CloudNote {
        CloudNote(
            kind: "record.deleted",
            details: [
                NoteField("zone", record.zone.description),
                NoteField("recordName", record.recordName),
                NoteField("recordType", record.recordType),
                NoteField("device", device),
            ])
    }

    /// A record deleted because `field` held a `.deleteSelf` reference to `target`.
    static func recordCascadeDeleted(
        _ record: CloudRecord, target: String, field: String
    ) -> CloudNote {
        CloudNote(
            kind: "record.cascade-deleted",
            details: [
                NoteField("zone", record.zone.description),
                NoteField("recordName", record.recordName),
                NoteField("recordType", record.recordType),
                NoteField("target", target),
                NoteField("field", field),
            ])
    }

    static func batchRolledBack(zone: ZoneID, failedCount: Int, device: String) -> CloudNote {
        CloudNote(
            kind: "records.atomic-rollback",
            details: [
                NoteField("zone", zone.description),
                NoteField("failedItems", String(failedCount)),
                NoteField("device", device),
            ])
    }

    static func zoneCreated(_ zone: ZoneID, incarnation: Int64, by actor: String) -> CloudNote {
        CloudNote(
            kind: "zone.created",
            details: [
                NoteField("zone", zone.description),
                NoteField("incarnation", String(incarnation)),
                NoteField("by", actor),
            ])
    }

    static func zoneDeleted(
        _ zone: ZoneID, reason: ZoneDeletionReason, records: Int, by actor: String
    )
        -> CloudNote
    {
        CloudNote(
            kind: "zone.deleted",
            details: [
                NoteField("zone", zone.description),
                NoteField("reason", reason.rawValue),
                NoteField("records", String(records)),
                NoteField("by", actor),
            ])
    }

    static let defaultZoneSkip = "the default zone cannot be deleted"

    static func zoneDeleteSkipped(_ zone: ZoneID, reason: ZoneDeletionReason) -> CloudNote {
        CloudNote(
            kind: "zone.delete-skipped",
            details: [
                NoteField("zone", zone.description),
                NoteField("reason", reason.rawValue),
                NoteField("why", zone.isDefaultZone ? defaultZoneSkip : "zone does not exist"),
            ])
    }

    static func subscriptionSaved(
        account: String, scope: DatabaseScope, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "subscription.saved",
            details: [
                NoteField("account", account),
                NoteField("scope", scope.rawValue),
                NoteField("device", device),
            ])
    }

    /// Who a fault action acts as in notes.
    static let cloudActor = "cloud"
}

// MARK: Sharing and access control

extension CloudNotes {
    /// A read or write the cloud refused on access grounds (every refusal is traced).
    /// A private-database request named a zone of another owner: the request's account
    /// got its own zone of that name (the default owner).
    static func ownerResolved(
        client: CloudClient, request: CloudRequest, zone: ZoneID, account: String
    ) -> CloudNote {
        CloudNote(kind: "owner.resolved", details: [
            NoteField("device", client.device),
            NoteField("request", request.kind),
            NoteField("zone", zone.description),
            NoteField("into", ZoneID(owner: account, name: zone.name).description),
        ])
    }

    static func accessRefused(
        client: CloudClient, zone: ZoneID, reason: RefusalReason, recordName: String?
    ) -> CloudNote {
        var details = [
            NoteField("device", client.device),
            NoteField("account", client.account ?? ""),
            NoteField("zone", zone.description),
            NoteField("reason", reason.rawValue),
        ]
        if let recordName { details.append(NoteField("recordName", recordName)) }
        return CloudNote(kind: "access.refused", details: details)
    }

    static func shareCreated(_ share: ShareInfo, by device: String) -> CloudNote {
        CloudNote(
            kind: "share.created",
            details: [
                NoteField("zone", share.zone.description),
                NoteField("share", share.shareRecordName),
                NoteField("root", share.rootRecordName ?? ""),
                NoteField("device", device),
            ])
    }

    /// An account invited, or a participant's permission or role changed (`kind` tells); the
    /// role is named when it is not `privateUser`.
    static func shareParticipant(
        _ kind: String, share: ShareInfo, account: String, permission: SharePermission,
        role: ParticipantRole = .privateUser, device: String
    ) -> CloudNote {
        var details = [
            NoteField("zone", share.zone.description),
            NoteField("share", share.shareRecordName),
            NoteField("account", account),
            NoteField("permission", permission.description),
        ]
        if role != .privateUser { details.append(NoteField("role", role.description)) }
        details.append(NoteField("device", device))
        return CloudNote(kind: kind, details: details)
    }

    /// The owner set a share's `publicPermission`.
    static func sharePublicPermission(
        zone: ZoneID, share: String, permission: SharePermission, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "share.public-permission",
            details: [
                NoteField("zone", zone.description),
                NoteField("share", share),
                NoteField("permission", permission.description),
                NoteField("device", device),
            ])
    }

    /// A participant accepted, was removed, or left (`kind` tells).
    static func shareMembership(
        _ kind: String, zone: ZoneID, share: String, account: String, device: String
    ) -> CloudNote {
        CloudNote(
            kind: kind,
            details: [
                NoteField("zone", zone.description),
                NoteField("share", share),
                NoteField("account", account),
                NoteField("device", device),
            ])
    }

    /// A share record deleted: `stopped` by the owner or `root-deleted` with its root.
    static func shareDeleted(
        zone: ZoneID, share: String, root: String?, reason: String, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "share.deleted",
            details: [
                NoteField("zone", zone.description),
                NoteField("share", share),
                NoteField("root", root ?? ""),
                NoteField("reason", reason),
                NoteField("device", device),
            ])
    }

    /// An owner zone entered an account's shared database.
    static func sharedZoneAdded(account: String, zone: ZoneID) -> CloudNote {
        CloudNote(
            kind: "shared-zone.added",
            details: [NoteField("account", account), NoteField("zone", zone.description)])
    }

    /// An owner zone left an account's shared database.
    static func sharedZoneRemoved(account: String, zone: ZoneID, reason: AccessLoss) -> CloudNote {
        CloudNote(
            kind: "shared-zone.removed",
            details: [
                NoteField("account", account),
                NoteField("zone", zone.description),
                NoteField("reason", reason.rawValue),
            ])
    }
}

extension SavePolicy {
    /// The Swift case name, as traces spell it.
    var name: String {
        switch self {
        case .ifServerRecordUnchanged: return "ifServerRecordUnchanged"
        case .changedKeys: return "changedKeys"
        case .allKeys: return "allKeys"
        }
    }
}
