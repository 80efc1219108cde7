import CKSyncEngineSim
import CloudSim
import Kernel
import SyncContract

/// Paused delegate events: a page waits for the `.resume` of `download.page.fetched` (the
/// app's actions there come before the page is applied), a send for that of `upload.start`
/// (they come before the batch is built). Each scope has at most one: its CKSyncEngine
/// delivers nothing more until the delegate completes the event (`completeDeferredEvent()`).
extension OutboxEngine {
    /// The marker put right after the probe point a scope's paused event waits for.
    func pauseMarker(_ scope: DatabaseScope) -> EngineEffect {
        .trace(kind: Self.pauseMarker, details: [TraceField("database", .string(scope.rawValue))],
               rules: [])
    }

    /// The scope's paused event waits for the resume numbered `resumeAt`.
    func markPause(scope: DatabaseScope, resumeAt: Int) {
        switch operation(scope).phase {
        case .fetching(let run):
            precondition(run.pausedPage?.pause.resumeAt == nil,
                "outbox: a marker for a page already counted")
            run.pausedPage?.pause.resumeAt = resumeAt
        case .sending(let run):
            precondition(run.batchPause?.resumeAt == nil,
                "outbox: a marker for a batch already counted")
            run.batchPause?.resumeAt = resumeAt
        case .idle:
            preconditionFailure("outbox: a pause marked in \(scope.rawValue), which runs "
                + "no operation")
        }
    }

    /// The scope whose paused event is due first (the lowest resume number reached), if any.
    private func duePause() -> DatabaseScope? {
        let mine = pause(of: .privateDatabase), shared = pause(of: .sharedDatabase)
        guard let sharedAt = shared?.resumeAt, shared!.isDue(resumesReceived) else {
            return mine?.isDue(resumesReceived) == true ? .privateDatabase : nil
        }
        guard let mineAt = mine?.resumeAt, mine!.isDue(resumesReceived) else {
            return .sharedDatabase
        }
        return mineAt < sharedAt ? .privateDatabase : .sharedDatabase
    }

    /// The pause the scope's operation waits in, if any.
    private func pause(of scope: DatabaseScope) -> Pause? {
        switch operation(scope).phase {
        case .fetching(let run): run.pausedPage?.pause
        case .sending(let run): run.batchPause
        case .idle: nil
        }
    }

    /// Goes on with the paused events whose probe point was resumed, in the order of their
    /// probes: applies a page and lets its engine go on with the fetch (the page's
    /// `stateUpdate`, the next page or zone), or lets a send build its batch.
    func resumePausedEvents() {
        while let scope = duePause() {
            let engine = engine(for: scope)
            guard case .fetching = operation(scope).phase else {
                // A send: its batch is built now.
                send(scope).batchPause = nil
                if let engine { take(engine.completeDeferredEvent()) }
                continue
            }
            applyPausedPage(scope: scope)
            if let engine { take(engine.completeDeferredEvent()) }
        }
    }

    /// Applies the scope's paused page; its `stateUpdate` then passes `download.page.saved`.
    private func applyPausedPage(scope: DatabaseScope) {
        let run = fetch(scope)
        guard let (changes, _) = run.pausedPage else {
            preconditionFailure("outbox: a due page that is not there")
        }
        run.pausedPage = nil
        for record in changes.modifications {
            run.seen.insert(record.recordName)
            // A record as this device saved it since its zone save is no news of the zone.
            let known = data.archives[record.recordName]
            if !recordsSavedSinceZoneSave.contains(record.recordName)
                || known?.changeTag != record.changeTag || known?.zone != record.zone {
                run.zonesWithNews.insert(record.zone)
            }
            if let created = record.creationTime {
                run.earliestCreation[record.zone] = min(
                    run.earliestCreation[record.zone] ?? created, created)
            }
        }
        for deletion in changes.deletions { run.zonesWithNews.insert(deletion.recordID.zoneID) }
        // A fetch from scratch still brings the deletions of records this device created
        // (docs/CLOUDSIM.md): those are not missed.
        for deletion in changes.deletions { run.seen.insert(deletion.recordID.recordName) }
        if run.tokenExpired { noteMissedDeletions(scope: scope) }
        applyFetchedChanges(changes, scope: scope)
        effects.append(.probe("download.page.stored"))
        run.pageAwaitingState = true
    }
}
