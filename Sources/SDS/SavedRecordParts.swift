import CloudSim
import Kernel

/// What the handling of an upload's answer reads of a saved record (`SDSEngine.uploaded`),
/// copied out of the answer's result where it lies: a record bound from the result (`case
/// .saved(let record)`) was a copy of all of it, its fields' map and a dozen strings retained,
/// and destroyed after, for every uploaded record.
struct SavedRecordParts {
    let recordType: String
    let recordName: String
    let parent: String?
    let changeTag: String?
    let creationTime: SimTime?
    let modificationTime: SimTime?
    /// The record holds its overflow asset's field (BIG-2).
    let hasOverflowField: Bool
}

extension ItemResult {
    /// The parts of a saved record (nil for another result), read in place.
    var savedParts: SavedRecordParts? {
        guard case .saved(let record) = self else { return nil }
        return SavedRecordParts(
            recordType: record.recordType, recordName: record.recordName,
            parent: record.parent, changeTag: record.changeTag,
            creationTime: record.creationTime, modificationTime: record.modificationTime,
            hasOverflowField: !record.fields[SDSEngine.overflowField].isNil)
    }

    /// The saved record itself, copied: for the rare readers that keep it whole.
    var savedRecord: CloudRecord {
        guard case .saved(let record) = self else {
            preconditionFailure("sds: a saved record asked of another result")
        }
        return record
    }
}
