import CloudSim
import Kernel
import LocalStore
import SyncContract

/// LIM-4 reached through ERR-1: a device that finds its zone created again by another device
/// downloads it from scratch, which brings no deletions; a record another device deleted
/// since the zone came back stays here, and ERR-1's refill uploads it again.
extension SDSEngine {
    /// Before ERR-1 forgets the change tags: the app's zone's records this device had.
    func noteRecordsBeforeZoneLoss(context: inout SDSContext) {
        var known: Set<String> = []
        for name in context.syncData.records.sortedBoundNames
            where !context.syncData.changeTag(of: name).isNil
            && context.syncData.recordZones[name] == nil {
            known.insert(name)
        }
        context.syncData.notRefetchedSinceZoneLoss = known
    }

    /// After the download from scratch of a zone another device refilled: the models whose
    /// records it did not bring (that device did not have them, or they were deleted since).
    func traceRecordsNotRefetched(context: inout SDSContext) {
        guard !context.syncData.notRefetchedSinceZoneLoss.isEmpty else { return }
        // A record the download brought has its change tag again (ERR-1 forgot them all).
        let missed = context.syncData.notRefetchedSinceZoneLoss.sorted().filter { name in
            context.syncData.changeTag(of: name).isNil
                && (context.syncData.model(forRecord: name).map(context.store.contains) ?? false)
        }
        context.syncData.notRefetchedSinceZoneLoss = []
        // Only once the zone holds records of this app's zone (brought, so their change tags
        // are known again): a zone still empty was not refilled yet, nothing was deleted.
        let refilled = context.syncData.records.sortedBoundNames.contains { name in
            !context.syncData.changeTag(of: name).isNil && context.syncData.recordZones[name] == nil
        }
        guard refilled && !missed.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.deletions-missed",
            details: [TraceField("records", .list(missed.map { .string($0) })),
                      TraceField("reason",
                          .string("the zone was created again by another device (ERR-1)"))],
            rules: ["LIM-4"]
        )
    }
}
