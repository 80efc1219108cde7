import CloudSim
import Kernel
import LocalStore
import SyncContract

/// A save this device made of a record of the app's zone, as iCloud answered it (DR-4).
struct AppZoneSave {
    /// When iCloud saved it.
    var time: SimTime
    /// The record as saved.
    var record: CloudRecord
    /// The keys the save carried (their versions).
    var keys: [String: Int64]
}

/// DR-4 seen by the device that edited the model: its save reached the model's old record in
/// the app's zone, and another device of the account, not knowing of it, moved the model into
/// a share (ID-4): the moved record lacks the edit, and the move's deletion of the old record
/// takes it with it.
extension SDSEngine {
    /// Traces the records of a share's page that this device did not move there and whose
    /// name it last saved in the app's zone, when the record was created before that save
    /// landed or lacks a value it carried; each such name is forgotten once its record came.
    func traceSavesOnOldRecords(_ records: [CloudRecord], zone: ZoneID, context: SDSContext) {
        var names: [String] = []
        for index in records.indices {
            let name = records[index].recordName
            guard let saved = appZoneSaves.removeValue(forKey: name),
                  !context.syncData.movedIntoShares.contains(name) else { continue }
            let landedAfter = records[index].creationTime.map { $0 < saved.time } ?? false
            // The move changes the parent: only the other keys tell a value lost.
            let parent = entities.named(records[index].recordType)?.parentRelationship?.name
            // Each key compared on its own: their order cannot matter.
            if landedAfter || saved.keys.keys.contains(where: { key in // tidy: ordered any
                key != parent && saved.record.fields[key] != records[index].fields[key]
            }) {
                names.append(name)
            }
        }
        guard !names.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.save-on-old-record",
            details: [TraceField("records", .list(names.sorted().map { .string($0) })),
                      TraceField("zone", .string(zone.description))],
            rules: ["DR-4"]
        )
    }

    /// Forgets the saves of records a page of the app's zone brings saved since by another
    /// save (another change tag): this device now holds that newer state.
    func forgetSavesSavedOver(_ records: [CloudRecord]) {
        for index in records.indices {
            let name = records[index].recordName
            if let saved = appZoneSaves[name], saved.record.changeTag != records[index].changeTag {
                appZoneSaves[name] = nil
            }
        }
    }
}
