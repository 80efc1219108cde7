import CKSyncEngineSim
import CloudSim
import EngineKit
import Kernel
import LocalStore
import SyncContract

extension OutboxEngine {
    /// `CKSyncEngineDelegate.handleEvent`: the adapter's answer to each event; its own
    /// effects (writes, probe points, traces) are appended at the event's place in the order.
    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) {
        // The callback's effects go to its CKSyncEngine, which hands them back in its order.
        var outer: [EngineEffect] = []
        swap(&outer, &effects)
        inDelegate = true
        let scope = syncEngine.database
        switch event {
        case .stateUpdate(let update):
            persistState(update, scope: scope)
        case .accountChange(let change):
            accountChange(change)
        case .fetchedDatabaseChanges(let changes):
            adoptOwnCollectionZones(changes.modifications, scope: scope)
            for deletion in changes.deletions {
                zoneGone(deletion.zone, reason: deletion.reason.rawValue, scope: scope)
            }
        case .fetchedRecordZoneChanges(let changes):
            pauseForPage(changes, scope: scope, syncEngine: syncEngine)
        case .willFetchChanges:
            begin(.fetching(FetchRun()), scope: scope)
            effects.append(.probe("sync.start"))
            effects.append(.probe("download.start"))
        case .willFetchRecordZoneChanges:
            // Nothing to do before a zone's pages: its records are handled page by page.
            break
        case .didFetchRecordZoneChanges(let zone, let error):
            if fetch(scope).tokenExpired { noteMissedDeletions(scope: scope) }
            if error == nil, !noteSavedZoneFetchedEmpty(zone, scope: scope) {
                noteZoneCreatedSinceMissedModels(zone, scope: scope)
            }
            if error == nil, !fetch(scope).zonesFromScratch.contains(zone), let working {
                zoneFetchedWithToken[zone] = working.now
            }
            if let error, error.code == .zoneNotFound || error.code == .userDeletedZone {
                zoneGone(zone, reason: error.code.description, scope: scope)
            }
        case .didFetchChanges:
            finishFetch(scope: scope)
        case .willSendChanges:
            pauseForBatch(scope: scope, syncEngine: syncEngine)
        case .sentDatabaseChanges(let sent):
            reportZoneSaves(sent)
        case .sentRecordZoneChanges(let sent):
            handleSent(sent, scope: scope, engine: syncEngine)
            effects.append(.probe("upload.done"))
            send(scope).uploadDonePassed = true
        case .didSendChanges:
            if !send(scope).uploadDonePassed {
                effects.append(.probe("upload.done"))
            }
            effects.append(.probe("sync.done"))
            end(scope: scope)
        }
        inDelegate = false
        syncEngine.append(effects)
        swap(&outer, &effects)
    }

    /// OBX-23: a page's (or a send's) `stateUpdate` is persisted with the sync data, and
    /// closes the page the app may be waiting on.
    private func persistState(
        _ update: CKSyncEngine.StateUpdate, scope: DatabaseScope
    ) {
        if scope == .privateDatabase {
            data.privateState = update.stateSerialization
        } else {
            data.sharedState = update.stateSerialization
        }
        data.pageAwaitingState = false
        writeSyncData()
        trace("state.persisted", [TraceField("database", .string(scope.rawValue))], ["OBX-23"])
        // A stateUpdate also comes outside any operation (coalesced after added changes).
        if case .fetching(let run) = operation(scope).phase, run.pageAwaitingState {
            run.pageAwaitingState = false
            effects.append(.probe("download.page.saved"))
        } else {
            effects.append(.probe("outbox.state.saved"))
        }
    }

    /// A fetched page waits for the resume of its probe point before it is applied.
    private func pauseForPage(
        _ changes: CKSyncEngine.FetchedRecordZoneChanges, scope: DatabaseScope,
        syncEngine: CKSyncEngine
    ) {
        // The page is applied at this probe's resume (`resumePausedEvents`): what the app does
        // at `download.page.fetched` happens before, as in an `async` handleEvent that has not
        // returned yet; the CKSyncEngine waits for it.
        effects.append(.probe("download.page.fetched"))
        effects.append(pauseMarker(scope))
        let run = fetch(scope)
        precondition(run.pausedPage == nil, "outbox: a page came while one waits")
        run.pausedPage = (changes, Pause())
        syncEngine.deferEventCompletion()
    }

    /// The end of a fetch: missed deletions are noted and the rest of the sync's probes pass.
    private func finishFetch(scope: DatabaseScope) {
        closeDownload(scope: scope)
        effects.append(.probe("upload.start"))
        effects.append(.probe("upload.done"))
        effects.append(.probe("sync.done"))
        end(scope: scope)
        if scope == .privateDatabase {
            launchFetched = true
            zonesSavedSinceFetch = []
            recordsSavedSinceZoneSave = []
        }
    }

    /// The download's end: deletions a fetch after an expired token missed are noted and
    /// `download.done` passes.
    private func closeDownload(scope: DatabaseScope) {
        if fetch(scope).tokenExpired { noteMissedDeletions(scope: scope) }
        effects.append(.probe("download.done"))
    }

    /// A send passes an empty download first (the scope runs no fetch: one operation at a
    /// time), then waits at `upload.start` to build its batch.
    private func pauseForBatch(
        scope: DatabaseScope, syncEngine: CKSyncEngine
    ) {
        begin(.sending(SendRun()), scope: scope)
        effects.append(.probe("sync.start"))
        effects.append(.probe("download.start"))
        effects.append(.probe("download.done"))
        // The batch is built at this probe's resume: what the app saves at `upload.start`
        // is staged first, and goes in it (ENGINES' upload.start: before the batch).
        effects.append(.probe("upload.start"))
        effects.append(pauseMarker(scope))
        syncEngine.deferEventCompletion()
    }

    /// OBX-3, OBX-19, OBX-20: the answers of the zones a send saved.
    private func reportZoneSaves(
        _ sent: CKSyncEngine.SentDatabaseChanges
    ) {
        if !sent.savedZones.isEmpty {
            trace("zones.saved",
                [TraceField("zones", .list(sent.savedZones.map { .string($0.description) }))],
                  ["OBX-3"])
        }
        for zone in sent.savedZones where !zonesSavedSinceFetch.contains(zone) {
            zonesSavedSinceFetch.append(zone)
        }
        for failure in sent.failedZoneSaves {
            trace("zone.save-failed", [
                TraceField("zone", .string(failure.zoneID.description)),
                TraceField("error", .string(failure.error.code.description)),
            ], failure.error.code.isTransient ? ["OBX-19"] : ["OBX-20"])
        }
    }

    /// `nextRecordZoneChangeBatch` (OBX-11): the pending changes in the order they were
    /// added; a save's record is built from its outbox row (the model's current values over
    /// the archived system fields); a save with no row and no model is removed.
    public func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) -> CKSyncEngine.RecordZoneChangeBatch? {
        inDelegate = true
        defer { inDelegate = false }
        // The callback's effects go to its CKSyncEngine, which hands them back in its order.
        var outer: [EngineEffect] = []
        swap(&outer, &effects)
        let pending = syncEngine.state.pendingRecordZoneChanges.filter {
            context.options.contains($0.recordID)
        }
        var dropped: [CKSyncEngine.PendingRecordZoneChange] = []
        let batch = CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { id in
            if let save = self.record(for: id) { return save }
            dropped.append(.saveRecord(id))
            return nil
        }
        if !dropped.isEmpty {
            syncEngine.state.remove(pendingRecordZoneChanges: dropped)
            trace("batch.dropped",
                [TraceField("records", .list(dropped.map { .string($0.recordID.recordName) }))],
                  ["OBX-11"])
        }
        let inFlight = (batch?.recordsToSave.map(\.record.recordName) ?? [])
            + (batch?.recordIDsToDelete.map(\.recordName) ?? [])
        let run = send(syncEngine.database)
        run.inFlight = inFlight
        run.editedInFlight = []
        if let batch {
            // OBX-34: `asset` properties go up as CKAssets.
            let withAssets = batch.recordsToSave.map(\.record).filter { record in
                record.fields.values.contains {
                    if case .asset = $0 { return true } else { return false }
                }
            }.map(\.recordName)
            if !withAssets.isEmpty {
                trace("batch.assets",
                    [TraceField("records", .list(withAssets.map { .string($0) }))],
                      ["OBX-34"])
            }
            noteCarriedAcrossAccounts(batch)
            trace("batch.built", [
                TraceField("database", .string(syncEngine.database.rawValue)),
                TraceField("saves", .int(Int64(batch.recordsToSave.count))),
                TraceField("deletes", .int(Int64(batch.recordIDsToDelete.count))),
                TraceField("policy", .string("ifServerRecordUnchanged, not atomic")),
            ], ["OBX-11", "OBX-12"])
        }
        effects.append(.probe("outbox.batch"))
        syncEngine.append(effects)
        swap(&outer, &effects)
        return batch
    }

    /// OBX-DR-3: saves and deletions recorded under another account, with no account switch
    /// reported since, go to the account signed in now.
    private func noteCarriedAcrossAccounts(_ batch: CKSyncEngine.RecordZoneChangeBatch) {
        guard let account else { return }
        let names = batch.recordsToSave.map(\.record.recordName)
            + batch.recordIDsToDelete.map(\.recordName)
        let carried = names.filter { name in
            guard let recorded = data.recordedUnder[name], let other = recorded.account else {
                return false
            }
            return other != account && recorded.switches == data.reportedSwitches
        }
        guard !carried.isEmpty else { return }
        trace("batch.carried-across-accounts", [
            TraceField("records", .list(carried.map { .string($0) })),
            TraceField("account", .string(account)),
        ], ["OBX-DR-3", "OBX-11"])
    }

    /// The record of a pending save: nil when it has no save row, or its model is gone.
    func record(for id: RecordID) -> RecordSave? {
        guard let row = data.rows[id.recordName], row.mutation == .save,
              let modelID = data.bindings.model(named: id.recordName),
              let model = store.model(modelID),
              let entity = entity(model.entity) else { return nil }
        let built = OutboxRecords.fields(of: model, entity: entity) {
            self.data.bindings.name(of: $0)
        }
        var record = CloudRecord(
            recordType: entity.name, recordName: id.recordName, zone: id.zoneID,
            fields: built.fields,
            parent: built.parent, changeTag: nil)
        if let archive = data.archives[id.recordName], archive.zone == id.zoneID {
            record.changeTag = archive.changeTag
        }
        return RecordSave(record: record, changedKeys: OutboxRecords.keys(of: entity))
    }
}
