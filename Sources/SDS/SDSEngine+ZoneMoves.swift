import CloudSim
import Kernel
import LocalStore
import SyncContract

/// A model whose record is in the app's zone, moved into a record of another user's share, or
/// a copy of such a share moved under a model of the app's zone: a record cannot change zones,
/// so it becomes a new record there, saved whole, and its record in the old zone is deleted
/// once that save is answered (ID-4's choice).
extension SDSEngine {
    /// Whether a save of `name` to `target` moves the record there: it has a record (a change
    /// tag) in the app's zone and goes to another user's, or it is a copy of another user's
    /// share that goes to the app's zone (an adoption too: ERR-1's refill).
    func movesZone(
        _ name: String, changeTag: String?, targetIsOwn: Bool, adoption: Bool,
        context: SDSContext
    ) -> Bool {
        let zone = context.syncData.recordZones.isEmpty ? nil : context.syncData.recordZones[name]
        let fromOwn = zone.map { $0.owner == context.account } ?? true
        if targetIsOwn { return !fromOwn }
        return !adoption && changeTag != nil && fromOwn
    }

    /// The pending change with every synchronized key: the record in the new zone is new.
    func wholeRecord(_ pending: PendingChange, of entity: SDSEntity) -> PendingChange {
        var whole = pending
        whole.isInsert = true
        for attribute in entity.synchronizedAttributes where whole.keys[attribute.name] == nil {
            whole.keys[attribute.name] = 0
        }
        for relationship in entity.synchronizedToOneRelationships
            where whole.keys[relationship.name] == nil {
            whole.keys[relationship.name] = 0
        }
        return whole
    }

    /// The saves of a request to another user's zone: each record that moves there leaves its
    /// old record to be deleted, and is from now on in that zone.
    func noteZones(of saved: [UploadBatch.Save], target: ZoneID, targetIsOwn: Bool,
                   adoption: Bool, context: inout SDSContext) {
        for name in saved.map(\.name).sorted() {
            let moves = movesZone(name, changeTag: context.syncData.changeTag(of: name),
                                  targetIsOwn: targetIsOwn, adoption: adoption, context: context)
            if moves {
                context.syncData.staleCopies[name] =
                    context.syncData.recordZones[name] ?? appZone(context)
                context.syncData.movedIntoShares.insert(name)
                effects.addTrace(detailed: context.isTracing,
                    kind: "upload.record.moved-zone",
                    details: [TraceField("record", .string(name)),
                              TraceField("zone", .string(target.description))],
                    rules: ["ID-4"]
                )
            }
            // A new model under a shared parent goes into the owner's zone; a copy moved out
            // of a share keeps its zone noted, the app's, so its old zone's feed is left out.
            if !targetIsOwn || moves { context.syncData.recordZones[name] = target }
        }
    }

    /// The zones of the old records still to delete now: their model's save in its new zone
    /// was answered (no change of it waits), and this run has not tried them.
    func staleCopyZones(_ upload: UploadRun, context: SDSContext) -> [ZoneID] {
        guard !context.syncData.staleCopies.isEmpty else { return [] }
        return context.syncData.staleCopies.keys.sorted().compactMap { name in
            guard staleCopyIsDue(name, upload, context: context) else { return nil }
            return context.syncData.staleCopies[name]
        }
    }

    /// The old records of `target` to delete in this request, after its other deletions.
    func collectStaleCopies(
        _ upload: UploadRun, target: ZoneID, budget: inout Int, deletedNames: inout [String],
        context: SDSContext
    ) {
        guard !context.syncData.staleCopies.isEmpty else { return }
        for name in context.syncData.staleCopies.keys.sorted() where budget > 0 {
            guard context.syncData.staleCopies[name] == target,
                  staleCopyIsDue(name, upload, context: context),
                  !deletedNames.contains(name) else { continue }
            deletedNames.append(name)
            upload.attemptedStaleCopies.insert(name)
            budget -= 1
        }
    }

    private func staleCopyIsDue(_ name: String, _ upload: UploadRun, context: SDSContext)
        -> Bool {
        // (A model whose new zone was lost with its share keeps its old record.)
        guard !upload.attemptedStaleCopies.contains(name), context.syncData.recordZones[name] != nil
        else { return false }
        guard let id = context.syncData.model(forRecord: name) else { return true }
        return !context.syncData.pending.contains(id)
    }

    /// Whether an answered deletion was of an old record left in `zone` by a move: it is
    /// forgotten, and the model's record (in its new zone) is left as it is.
    func staleCopyDeleted(_ name: String, zone: ZoneID, failed error: CloudError? = nil,
                          context: inout SDSContext) -> Bool {
        guard !context.syncData.staleCopies.isEmpty,
              context.syncData.staleCopies[name] == zone,
              context.syncData.recordZones[name] != nil, context.syncData.recordZones[name] != zone
        else { return false }
        // A failed deletion is tried again at the next synchronization, unless the record is gone.
        if let error, error.code != .unknownItem && error.code != .zoneNotFound { return true }
        context.syncData.staleCopies[name] = nil
        effects.addTrace(detailed: context.isTracing,
            kind: "upload.old-zone-record-deleted",
            details: [TraceField("record", .string(name)),
                      TraceField("zone", .string(zone.description))],
            rules: ["ID-4"]
        )
        return true
    }

    /// A downloaded page without the records and deletions of a zone that a model's record
    /// moved out of (the old record, until the mover deletes it): the model stays as it is.
    func withoutMovedRecords(_ page: consuming DownloadPage, context: SDSContext)
        -> DownloadPage {
        let zones = context.syncData.recordZones
        guard !zones.isEmpty else { return page }
        let zone = page.sharedZone ?? appZone(context)
        let movedAway = { (name: String) in zones[name].map { $0 != zone } ?? false }
        guard page.records.contains(where: { movedAway($0.recordName) })
            || page.deletions.contains(where: { movedAway($0.recordName) }) else { return page }
        let edited = page.records.map(\.recordName).filter(movedAway).sorted()
        let deleted = page.deletions.map(\.recordName).filter(movedAway).sorted()
        page.records.removeAll { movedAway($0.recordName) }
        page.deletions.removeAll { movedAway($0.recordName) }
        // DR-4: an old record that changed after this device moved its model holds an edit
        // the move loses.
        let lost = edited.contains(where: context.syncData.movedIntoShares.contains)
        effects.addTrace(detailed: context.isTracing,
            kind: "download.old-zone-record-ignored",
            details: [TraceField("records", .list(edited.map { .string($0) })),
                      TraceField("deletions", .list(deleted.map { .string($0) }))],
            rules: lost ? ["ID-4", "DR-4"] : ["ID-4"]
        )
        if page.sharedZone == nil && !edited.isEmpty {
            traceNameOfCopiesInOwnZone(edited, context: context)
        }
        return page
    }
}
