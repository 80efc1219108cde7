import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// Runs the running synchronization's steps until it waits for an answer or passes a
    /// probe point.
    ///
    /// The caller hands over the run it read (a step changes the run in place and never
    /// replaces it; only the end below ends it): each read of the lifecycle retains and
    /// releases the run once more, through an outlined copy of the enum.
    func advance(_ current: SyncRun, context: inout SDSContext) {
        var guardSteps = 0
        while !current.awaitingResume, current.awaiting == nil {
            guardSteps += 1
            precondition(guardSteps < 10_000, "sds: a synchronization stepped without waiting")
            if step(current, context: &context) == .ended {
                // Held from here to its end: a caller may step it unretained (`resume`).
                let ended = lifecycle.end()
                finishRun(ended, context: &context)
                return
            }
        }
    }

    enum StepOutcome { case next, ended }

    /// Passes a probe point: the world runs triggers there, then resumes the engine.
    func pass(_ probe: String, then next: SyncStep, _ run: SyncRun) {
        run.step = next
        run.awaitingResume = true
        effects.append(.probe(probe))
    }

    /// Sends a request the run then waits for. The request is the caller's to give away
    /// (`consuming`): borrowed, it would be copied into the effect and the caller's destroyed
    /// after, an outlined copy and destroy of its payload per request.
    func send(_ request: consuming CloudRequest, _ run: SyncRun) {
        let id = makeRequestID()
        run.awaiting = id
        effects.append(.send(id, consume request))
    }

    private func step(_ current: SyncRun, context: inout SDSContext) -> StepOutcome {
        switch current.step {
        case .begin:
            beginRun(current, context: &context)
        case .checkAccount:
            if accountChecked {
                current.step = schemaRequested ? .initializeSchema(phase: 0) : .fetchDatabase
            } else {
                send(.accountStatus, current)
            }
        case .initializeSchema(let phase):
            if phase == 0 {
                schemaRequested = false
                // Whichever run makes the attempt answers for it, success or failure.
                current.carriesSchema = true
            }
            sendSchemaRequest(phase: phase, current, context: &context)
        case .fetchDatabase:
            send(.fetchDatabaseChanges(scope: .privateDatabase,
                token: context.syncData.databaseToken), current)
        case .ensureZone:
            ensureAppZone(current, context: &context)
        case .ensureSubscription:
            ensureSubscriptions(current, context: &context)
        case .catchUp:
            catchUpRecords(current, context: &context)
        case .downloadStart:
            beginDownload(current, context: &context)
        case .fetchPage:
            fetchAppZonePage(current, context: &context)
        case .pageFetched:
            pass("download.page.fetched", then: .resolvePage, current)
        case .resolvePage:
            resolveFetchedPage(current, context: &context)
        case .storePage:
            storeFetchedPage(current, context: &context)
        case .savePage:
            saveFetchedPage(current, context: &context)
        case .fetchSharedDatabase:
            let request = CloudRequest.fetchDatabaseChanges(
                scope: .sharedDatabase, token: context.syncData.sharedDatabaseToken)
            send(request, current)
        case .fetchSharedPage(let zone):
            fetchSharedZonePage(zone, current, context: &context)
        case .downloadDone:
            finishDownload(current, context: &context)
            pass("download.done", then: .uploadStart, current)
        case .uploadStart:
            current.phase = .upload(UploadRun())
            effects.addTrace(detailed: context.isTracing, kind: "upload.after-download",
                details: [], rules: ["SYNC-2"])
            pass("upload.start", then: .uploadBatch, current)
        case .uploadBatch:
            sendUploadBatch(current, context: &context)
        case .uploadAnswered:
            // The answer is handled in `handleResponse`; nothing to do until it arrives.
            preconditionFailure("sds: upload step advanced without an answer")
        case .finish:
            pass("sync.done", then: .ended, current)
        case .ended:
            return .ended
        }
        return .next
    }

    /// A run first gives models saved without records their records, once asked to.
    private func beginRun(_ current: SyncRun, context: inout SDSContext) {
        if context.syncData.lookForModelsWithoutRecords {
            context.syncData.lookForModelsWithoutRecords = false
            findModelsWithoutRecords(context: &context)
        }
        pass("sync.start", then: .checkAccount, current)
    }

    /// The app zone is created once; a run after that goes straight on.
    private func ensureAppZone(_ current: SyncRun, context: inout SDSContext) {
        if context.syncData.zoneCreated {
            current.step = .ensureSubscription
        } else {
            let zone = appZone(context)
            send(.modifyZones(scope: .privateDatabase, save: [zone], delete: []), current)
        }
    }

    /// The private, then the shared database subscription, each saved once.
    private func ensureSubscriptions(_ current: SyncRun, context: inout SDSContext) {
        if !context.syncData.subscribed {
            send(.saveDatabaseSubscription(scope: .privateDatabase), current)
        } else if !context.syncData.sharedSubscribed {
            send(.saveDatabaseSubscription(scope: .sharedDatabase), current)
        } else {
            current.step = .catchUp
        }
    }

    /// Records left to fetch by name (a batch at a time) come before the download.
    private func catchUpRecords(_ current: SyncRun, context: inout SDSContext) {
        applySkippedDeletions(context: &context)
        let names = recordsToCatchUp(context: context)
        if names.isEmpty {
            current.step = .downloadStart
        } else {
            let batch = Array(names.prefix(Self.maxItemsPerUpload))
            send(.fetchRecords(scope: .privateDatabase, zone: appZone(context), names: batch),
                current)
        }
    }

    /// DL-2, SYNC-7: a download starts from scratch, or continues from its saved token.
    private func beginDownload(_ current: SyncRun, context: inout SDSContext) {
        current.phase = .download(DownloadRun())
        if context.syncData.zoneToken.isNil && !context.syncData.expiredTokenRefetch {
            context.syncData.needsFullDownload = true
        }
        if context.syncData.downloadInProgress && !context.syncData.zoneToken.isNil {
            effects.addTrace(detailed: context.isTracing,
                kind: "download.continues",
                details: [TraceField("from", .string("the last saved token"))],
                rules: ["DL-2"]
            )
        }
        context.syncData.downloadInProgress = true
        if context.syncData.isRedownloading && context.syncData.pendingCount > 0 {
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.held",
                details: [TraceField("reason",
                    .string("every record must be downloaded first"))],
                rules: ["SYNC-7"]
            )
        }
        pass("download.start", then: .fetchPage, current)
    }

    /// A page of the app zone, from the saved zone token.
    private func fetchAppZonePage(_ current: SyncRun, context: inout SDSContext) {
        let request = CloudRequest.fetchZoneChanges(
            scope: .privateDatabase,
            zone: appZone(context),
            token: context.syncData.zoneToken,
            resultsLimit: pageSize
        )
        send(request, current)
    }

    /// Records are matched to models before the store sees the page, or when it is stored.
    private func resolveFetchedPage(_ current: SyncRun, context: inout SDSContext) {
        let download = current.download
        if mechanisms.matchesPageBeforeStoring {
            download.resolution = download.withPage { page in
                resolvePage(page, context: &context)
            }
        } else {
            download.resolution = PageResolution()
            download.resolution.deferred = true
        }
        pass("download.page.resolved", then: .storePage, current)
    }

    /// The page is applied to the store; a refetch after an expired token notes its names.
    private func storeFetchedPage(_ current: SyncRun, context: inout SDSContext) {
        // Moved out of the run, an empty one left there (not copied, then replaced).
        var resolution = PageResolution()
        let download = current.download
        swap(&resolution, &download.resolution)
        download.withPage { page in
            if resolution.deferred {
                resolution = resolvePage(page, context: &context)
            }
            applyPage(page, resolution: resolution, context: &context)
            if context.syncData.expiredTokenRefetch {
                // Room for the page's names made once (not grown 1, 2, 4, … each growth
                // hashing every name again), and each record read in place (a loop's
                // element was a copy of the whole record, for its name).
                let needed = context.syncData.refetchedRecords.count + page.records.count
                context.syncData.refetchedRecords.reserveCapacity(needed)
                for index in page.records.indices {
                    context.syncData.refetchedRecords.insert(page.records[index].recordName)
                }
            }
        }
        context.syncData.pageInProgress = true
        pass("download.page.stored", then: .savePage, current)
    }

    /// DL-1: the page's token is saved, then the next page, zone or database is chosen.
    private func saveFetchedPage(_ current: SyncRun, context: inout SDSContext) {
        var page = current.download.takePage()
        if let zone = page.sharedZone {
            context.syncData.sharedZoneTokens[zone] = page.takeToken()
        } else if !context.syncData.zoneToken.isNil {
            page.exchangeToken(with: &context.syncData.zoneToken!)
        } else {
            context.syncData.zoneToken = page.takeToken()
        }
        context.syncData.pageInProgress = false
        effects.addTrace(detailed: context.isTracing,
            kind: "download.page.saved",
            details: [TraceField("records", .int(Int64(page.records.count))),
                      TraceField("deletions", .int(Int64(page.deletions.count)))],
            rules: ["DL-1"]
        )
        let next: SyncStep
        if let zone = page.sharedZone {
            next = page.moreComing ? .fetchSharedPage(zone) : nextSharedZone(current)
        } else {
            let skipShared = !sharedDatabaseMayHaveChanged
                && context.syncData.sharedZones.isEmpty
            next = page.moreComing
                ? .fetchPage : (skipShared ? .downloadDone : .fetchSharedDatabase)
        }
        pass("download.page.saved", then: next, current)
    }

    /// A page of a shared zone, from its own token.
    private func fetchSharedZonePage(
        _ zone: ZoneID, _ current: SyncRun, context: inout SDSContext
    ) {
        let request = CloudRequest.fetchZoneChanges(
            scope: .sharedDatabase,
            zone: zone,
            token: context.syncData.sharedZoneTokens[zone],
            resultsLimit: pageSize
        )
        send(request, current)
    }

    /// The next upload batch is sent, or the upload ends when nothing is left.
    private func sendUploadBatch(_ current: SyncRun, context: inout SDSContext) {
        if let request = makeUploadRequest(current, context: &context) {
            let id = makeRequestID()
            current.awaiting = id
            // Moved into the effect (not copied, then destroyed here).
            effects.append(.send(id, consume request))
            // The run waits for the answer either way: passed in line, the `.resume` that
            // would have found it waiting is all that is saved.
            pass("upload.sent", then: .uploadAnswered, current)
        } else if current.upload.uploadRequests == 0 {
            pass("upload.done", then: .finish, current)
        } else {
            current.step = .finish
        }
    }

    /// The download completed: HDO-1 after a download from scratch, SYNC-7 releases uploads
    /// (unless single records failed: then after the third download), LIM-4 when an expired
    /// token left deleted models behind.
    private func finishDownload(_ current: SyncRun, context: inout SDSContext) {
        guard !current.downloadFailed else { return }
        context.syncData.downloadInProgress = false
        // A download from scratch that was interrupted continues from its saved token; it
        // counts once it reaches the end (HDO-3), never before.
        var completedFullDownload = context.syncData.needsFullDownload
        if completedFullDownload && context.syncData.isRedownloading
            && !context.syncData.aside.isEmpty && context.syncData.fullDownloadAttempts < 2 {
            // SYNC-7: "also if single records failed, for up to three downloads": records
            // kept aside (DL-3, DL-4) mean not every record was downloaded, so uploads stay
            // held and the next downloads go on from the saved token, retrying what was kept
            // aside; the third download releases uploads whatever is still aside. (Choice:
            // no extra sync is scheduled; the next sync, as any save or push starts one, is
            // the next download. The full download is not counted complete: HDO-1 waits.)
            context.syncData.fullDownloadAttempts += 1
            completedFullDownload = false
            effects.addTrace(detailed: context.isTracing,
                kind: "full-download.incomplete",
                details: [TraceField("aside",
                    .list(context.syncData.aside.names.map { .string($0) })),
                          TraceField("downloads",
                              .int(Int64(context.syncData.fullDownloadAttempts)))],
                rules: ["SYNC-7"]
            )
        }
        let wasRedownload = context.syncData.isRedownloading
        if completedFullDownload {
            context.syncData.needsFullDownload = false
            context.syncData.isRedownloading = false
            // (Uploads held by this run cannot count: the upload comes after this.)
            if wasRedownload && context.syncData.fullDownloadAttempts > 0 {
                effects.addTrace(detailed: context.isTracing, kind: "full-download.done",
                    details: [], rules: ["SYNC-7"])
            }
            context.syncData.fullDownloadAttempts = 0
        }
        if completedFullDownload && !context.syncData.hasDownloadedOnce {
            context.syncData.hasDownloadedOnce = true
            effects.addTrace(detailed: context.isTracing, kind: "downloaded-once", details: [],
                rules: ["HDO-1"])
        }
        if completedFullDownload { traceRecordsNotRefetched(context: &context) }
        if context.syncData.expiredTokenRefetch {
            traceDeletionsMissed(wasRedownload: wasRedownload, context: &context)
        }
    }

    /// LIM-4: at the end of a download from scratch (an expired token, DEL-2's relaunch), the
    /// models whose records it did not bring stay: their deletions, if any, were missed.
    private func traceDeletionsMissed(wasRedownload: Bool, context: inout SDSContext) {
        let seen = context.syncData.refetchedRecords
        context.syncData.expiredTokenRefetch = false
        context.syncData.refetchedRecords = []
        // Sorted once found: sorting every bound name first cost more than the search.
        let stale = context.syncData.records.boundNames { name in
            guard !seen.contains(name), let id = context.syncData.model(forRecord: name)
            else { return false }
            return context.store.contains(id) && !context.syncData.changeTag(of: name).isNil
        }.sorted()
        // (Replaced at each such download: only the last one's are asked about.)
        if !stale.isEmpty || !context.syncData.deletionsMissed.isEmpty {
            context.syncData.deletionsMissed = Set(stale)
        }
        guard !stale.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.deletions-missed",
            details: [TraceField("records", .list(stale.map { .string($0) })),
                      TraceField("reason", .string(wasRedownload
                          ? "every record was downloaded again (DEL-2)"
                          : "the change token expired"))],
            rules: ["LIM-4"]
        )
        if !wasRedownload, !broughtOwnRecords(seen, context: context) {
            traceZoneFoundEmpty(stale, context: context)
        }
    }

    /// Whether a download from scratch brought records of this device's models that only an
    /// upload of their own put there: an identity record (ID-1) does not count, since any
    /// device holding a model of that identity refills it under the same name (ERR-1).
    private func broughtOwnRecords(_ seen: Set<String>, context: SDSContext) -> Bool {
        !context.syncData.records.boundNames { name in
            guard seen.contains(name) else { return false }
            guard let id = context.syncData.model(forRecord: name),
                  let model = context.store.model(id),
                  let entity = entities.named(model.entity) else { return true }
            return entity.identity.isEmpty || !name.hasPrefix(model.entity + ".")
        }.isEmpty
    }

    /// DR-8: a download from scratch after an expired token that brought none of the records
    /// of this device's uploaded models: the zone may have been deleted and created again by
    /// another device, which no request will report (ERR-1 does not refill it).
    private func traceZoneFoundEmpty(_ stale: [String], context: SDSContext) {
        let kept = stale.filter { name in
            context.syncData.model(forRecord: name).map { context.syncData.pending[$0].isNil }
                ?? false
        }
        guard !kept.isEmpty else { return }
        effects.addTrace(detailed: context.isTracing,
            kind: "download.zone-found-empty",
            details: [TraceField("records", .list(kept.map { .string($0) }))],
            rules: ["DR-8"]
        )
    }

    /// Ends the running synchronization and starts the next one if one was asked for.
    func finishRun(_ finished: SyncRun, context: inout SDSContext) {
        completeWaiters(finished.waiters)
        if finished.carriesSchema {
            // SCHEMA-3 was asked for before this run started and the run ended without it.
            failSchema(
                reason: finished.failure?.description ?? "the synchronization ended before it")
        }
        effects.addTrace(detailed: context.isTracing, kind: "sync.ended", details: [], rules: [])
        if pendingReset != nil {
            performReset(context: &context)
            return
        }
        if retryScheduled && waitersForNextRun.isEmpty && wantsSync
            && !mechanisms.ignoresRetryWhenSyncWanted
        {
            // ERR-3: CloudKit asked this run to wait; the synchronization it still wants (a
            // zone to create again, changes left over) runs when the retry timer fires, not
            // the instant this one ends. Starting at once would cancel the retry and, while
            // the cloud keeps failing the same way, repeat at the same simulated instant
            // forever.
            effects.addTrace(detailed: context.isTracing,
                kind: "sync.deferred",
                details: [TraceField("until", .string("the scheduled retry"))],
                rules: ["ERR-3"]
            )
            return
        }
        if wantsSync || !waitersForNextRun.isEmpty {
            requestSync(waiter: nil, context: &context)
        }
    }

    /// Ends the run early after an error; the world still sees `sync.done`.
    func abortRun(_ current: SyncRun, error: CloudError, context: inout SDSContext) {
        // Described only for a detailed trace; the run keeps the error itself (describing
        // one is costly, and a run's failure is rarely read).
        effects.addTrace(detailed: context.isTracing,
            kind: "sync.failed",
            details: [TraceField("error", .string(error.description))],
            rules: []
        )
        current.awaiting = nil
        current.step = .finish
        current.failure = current.failure ?? error
        scheduleRetry(after: error, context: context)
    }

    func scheduleRetry(after error: CloudError, context: SDSContext) {
        switch error.code {
        case .networkUnavailable, .networkFailure:
            waitingForNetwork = true
            wantsSync = true
            return
        case .notAuthenticated, .accountTemporarilyUnavailable, .userDeletedZone:
            return
        default:
            break
        }
        let delay: SimTime
        if let retryAfter = error.retryAfter {
            delay = retryAfter
        } else {
            backoffFailures = min(backoffFailures + 1, 20)
            let seconds = Int64(1) << Int64(min(backoffFailures - 1, 10))
            delay = min(.seconds(seconds), Self.maxBackoff)
        }
        retryScheduled = true
        effects.append(.setTimer(.retry, after: delay))
        effects.addTrace(detailed: context.isTracing,
            kind: "retry.scheduled",
            details: [TraceField("after", .string(delay.description))],
            rules: error.retryAfter != nil ? ["ERR-3"] : []
        )
    }

    /// The next accepted shared zone to download, or the end of the download.
    func nextSharedZone(_ current: SyncRun) -> SyncStep {
        guard !current.download.sharedZonesToFetch.isEmpty else { return .downloadDone }
        return .fetchSharedPage(current.download.sharedZonesToFetch.removeFirst())
    }
}
