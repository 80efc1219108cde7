import CloudSim
import Kernel
import LocalStore
import SyncContract

/// LIM-4's consequence for LIM-3's race: a move into a model whose deletion this device
/// missed (its token expired) is refused at every try, the parent gone from iCloud.
extension SDSEngine {
    /// Traces a save refused with `referenceViolation` that moves its model under a parent
    /// whose deletion LIM-4's last download from scratch missed (`deletionsMissed`): iCloud
    /// lacks that parent, deleted elsewhere without this device learning of it.
    func traceParentDeletionMissed(
        _ name: String, error: CloudError, batch: UploadBatch, at index: Int,
        context: SDSContext
    ) {
        guard let found = batch.index(of: name, near: index),
              let model = context.store.model(batch.saved[found].model),
              let parent = entities.named(model.entity)?.parentRelationship,
              batch.saved[found].keys[parent.name] != nil,
              let target = model.toOne[parent.name], context.store.contains(target),
              let parentName = context.syncData.recordName(of: target),
              context.syncData.deletionsMissed.contains(parentName),
              context.syncData.pendingDeletions[parentName].isNil,
              // iCloud names the parent it lacks (not a rejection of another kind).
              error.message.hasPrefix("Parent '\(parentName)'")
        else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.parent-deletion-missed",
            details: [TraceField("record", .string(name)),
                      TraceField("parent", .string(parentName))],
            rules: ["LIM-4", "LIM-3"]
        )
    }
}
