import CloudSim
import Kernel
import LocalStore
import SyncContract

/// DR-5: one record name in two zones that this account reads (a device signed into the other
/// account uploaded its models there under the same names, ACCT-3/ACCT-4, and a share brings
/// one back): records are keyed by name, so one model takes both.
extension SDSEngine {
    /// Traces the records of a shared zone's page whose name is bound to a model of the app's
    /// own zone (`targets`: the page's stored records' matches, before the binding moves).
    func traceNameInTwoZones(_ records: [CloudRecord], targets: [PageResolution.Target?],
                             zone: ZoneID, context: SDSContext) {
        var names: [String] = []
        for index in records.indices where targets[index]?.match == .own {
            let name = records[index].recordName
            if context.syncData.recordZones[name] == nil
                && !context.syncData.changeTag(of: name).isNil {
                names.append(name)
            }
        }
        guard !names.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.record-name-in-two-zones",
            details: [TraceField("records", .list(names.sorted().map { .string($0) })),
                      TraceField("zone", .string(zone.description))],
            rules: ["DR-5"]
        )
    }

    /// The other order: a page of the app's zone brings records (`names`, sorted) whose names
    /// are bound to copies of another user's share that this device did not move there; they
    /// are left out as a move's old records, so the model stays the share's copy.
    func traceNameOfCopiesInOwnZone(_ names: [String], context: SDSContext) {
        let copies = names.filter { !context.syncData.movedIntoShares.contains($0) }
        guard !copies.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.record-name-in-two-zones",
            details: [TraceField("records", .list(copies.map { .string($0) })),
                      TraceField("zone", .string(appZone(context).description))],
            rules: ["DR-5"]
        )
    }
}
