/// The notes the cloud writes to the trace, in one catalogue so their kinds and detail keys
/// stay stable (docs/CLOUDSIM.md lists them).
enum CloudNotes {
    static func recordSaved(
        _ record: CloudRecord, changedKeys: [String], policy: SavePolicy, device: String
    )
        -> CloudNote
    {
        CloudNote(
            kind: "record.saved",
            details: [
                NoteField("zone", record.zone.description),
                NoteField("recordName", record.recordName),
                NoteField("recordType", record.recordType),
                NoteField("changedKeys", changedKeys.joined(separator: ",")),
                NoteField("policy", policy.name),
                NoteField("changeTag", record.changeTag ?? ""),
                NoteField("device", device),
            ])
    }

    /// A save under `changedKeys`/`allKeys` that brought a deleted record back (LIM-1 when
    /// only the edited keys came back).
    static func recordRecreated(
        _ record: CloudRecord, policy: SavePolicy, device: String
    ) -> CloudNote {
        CloudNote(
            kind: "record.recreated",
            details: [
                NoteField("zone", record.zone.description),
                NoteField("recordName", record.recordName),
                NoteField("device", device),
                NoteField("policy", policy.name),
            ],
            rules: policy == .changedKeys ? ["LIM-1"] : [])
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

    static func recordCascadeDeleted(_ record: CloudRecord, parent: String) -> CloudNote {
        CloudNote(
            kind: "record.cascade-deleted",
            details: [
                NoteField("zone", record.zone.description),
                NoteField("recordName", record.recordName),
                NoteField("recordType", record.recordType),
                NoteField("parent", parent),
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

    static func zoneDeleteSkipped(_ zone: ZoneID, reason: ZoneDeletionReason) -> CloudNote {
        CloudNote(
            kind: "zone.delete-skipped",
            details: [
                NoteField("zone", zone.description),
                NoteField("reason", reason.rawValue),
                NoteField("why", "zone does not exist"),
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
