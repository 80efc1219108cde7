/// The parameters of one `modifyRecords` request, gathered so they travel as one value.
struct ModifyRecordsRequest {
    var scope: DatabaseScope
    var zone: ZoneID
    var saves: [RecordSave]
    var deletes: [String]
    var policy: SavePolicy
    var atomic: Bool

    var itemCount: Int { saves.count + deletes.count }
}

/// What the server decided for one save before anything is written.
enum SaveVerdict {
    case write(PlannedSave)
    case fail(CloudError)
    /// What `RecordBatch.apply` leaves in the place of a verdict it moved out; never planned.
    case taken

    var plan: PlannedSave? {
        if case .write(let plan) = self { return plan }
        return nil
    }

    var error: CloudError? {
        if case .fail(let error) = self { return error }
        return nil
    }
}

/// A save that passed every check: the merged server record (without its new change tag)
/// and the keys it writes.
struct PlannedSave {
    var record: CloudRecord
    var writtenKeys: [String]
    /// The server's copy before the save; nil when the save creates the record.
    var previous: CloudRecord?
    /// A `changedKeys`/`allKeys` save with a change tag that brings a deleted record back.
    var isRecreation: Bool
    /// A save without a change tag of a name whose record was deleted and not written since:
    /// the record is created as new (`record.created-over-tombstone`).
    var isCreationOverTombstone = false
    /// The policy the save is judged by: the request's, `ifServerRecordUnchanged` for shares.
    var policy: SavePolicy
    /// `RecordNameHash.hash` of the record's name, computed when the save was planned (the
    /// name never changes after): the zone's write files the record by it.
    let nameHash: Int
}
