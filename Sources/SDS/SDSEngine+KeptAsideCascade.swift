import CloudSim
import Kernel
import SyncContract

/// DR-7: a record kept aside because the store rejects its values (DL-4) is no model here,
/// so deleting the model it belongs to (its reference cascades, `deleteSelf`) deletes nothing
/// else on this device, while iCloud's cascade deletes that record for every device.
extension SDSEngine {
    /// Traces the records kept aside whose cascading reference names `name`, whose deletion
    /// this device's upload just had answered.
    func traceKeptAsideDeletedWith(_ name: String, context: SDSContext) {
        var taken: [String] = []
        for aside in context.syncData.aside.names.sorted() {
            // (One kept aside for a reference not here, DL-3, is LIM-3's when this device
            // deleted what it references: traced there.)
            guard let kept = context.syncData.aside[aside],
                  kept.reason == Self.storeRejectsValues else { continue }
            let record = kept.record
            // (The fields in name order: no dictionary order reaches the trace.)
            let cascades = record.fields.keys.sorted().contains { key in
                if case .reference(let target, action: .deleteSelf)? = record.fields[key] {
                    return target == name
                }
                return false
            }
            if cascades { taken.append(aside) }
        }
        guard !taken.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.deletion-takes-kept-aside",
            details: [TraceField("record", .string(name)),
                      TraceField("records", .list(taken.map { .string($0) }))],
            rules: ["DR-7"]
        )
    }
}
