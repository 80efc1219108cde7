import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// Routes an answer to the step of the running synchronization that waits for it.
    func handleResponse(_ id: RequestID, _ response: CloudResponse, context: inout SDSContext) {
        // An answer the run no longer waits for can arrive: the run it was sent for ended
        // (an account change, an error) or a later request replaced it.
        // Stepped unretained, as in `resume`: only `advance` ends the run, holding it.
        guard let unretained = lifecycle.unretainedRun,
              unretained._withUnsafeGuaranteedRef({ $0.awaiting == id }) else {
            effects.addTrace(detailed: context.isTracing, kind: "response.ignored",
                details: [TraceField("request", .string(id.description))], rules: [])
            return
        }
        unretained._withUnsafeGuaranteedRef { current in
            handleAwaited(response, current, context: &context)
        }
    }

    /// The answer the running synchronization awaits (`handleResponse`).
    private func handleAwaited(
        _ response: CloudResponse, _ current: SyncRun, context: inout SDSContext
    ) {
        current.awaiting = nil
        if case .failure(let error) = response, current.step != .uploadAnswered {
            handleFailure(error, current, context: &context)
        } else {
            handleAnswer(response, current, context: &context)
        }
        if stopped && current.step.isBeforeUpload && !current.awaitingResume {
            // LIFE-1: a running download stops after its current page.
            current.step = .finish
        }
        advance(current, context: &context)
    }

    private func handleAnswer(
        _ response: CloudResponse,
        _ current: SyncRun,
        context: inout SDSContext
    ) {
        switch current.step {
        case .checkAccount:
            handleAccountStatus(response, current, context: &context)
        case .fetchDatabase:
            if case .databaseChanges(let changed, let deleted, let token, _) = response {
                handleDatabaseChanges(changed: changed, deleted: deleted, current,
                    context: &context)
                context.syncData.databaseToken = Self.copied(token)
            }
        case .ensureZone:
            context.syncData.zoneCreated = true
            current.step = .ensureSubscription
        case .ensureSubscription:
            if context.syncData.subscribed && context.syncData.sharedSubscribed {
                current.step = .catchUp
            } else if context.syncData.subscribed {
                context.syncData.sharedSubscribed = true
            } else {
                context.syncData.subscribed = true
            }
        case .fetchSharedDatabase:
            sharedDatabaseMayHaveChanged = false
            if case .databaseChanges(let changed, let deleted, let token, _) = response {
                handleSharedDatabaseChanges(changed: changed, deleted: deleted, context: &context)
                context.syncData.sharedDatabaseToken = Self.copied(token)
            }
            current.download.sharedZonesToFetch = context.syncData.sharedZones
            current.step = nextSharedZone(current)
        case .fetchSharedPage(let zone):
            if case .zoneChanges(let records, let deletions, let token, let moreComing) = response {
                let read = readOverflow(records, deletions: deletions, context: &context)
                let page = Self.page(sharedZone: zone, records: read,
                    deletions: deletions, token: token, moreComing: moreComing)
                current.download.page = keptPage(page, context: context)
                current.step = .pageFetched
            }
        case .fetchPage:
            if case .zoneChanges(let records, let deletions, let token, let moreComing) = response {
                // BIG-2: values in overflow assets are read like any other (SDSEngine+Overflow).
                let read = readOverflow(records, deletions: deletions, context: &context)
                let page = Self.page(sharedZone: nil, records: read,
                    deletions: deletions, token: token, moreComing: moreComing)
                current.download.page = keptPage(page, context: context)
                current.step = .pageFetched
            }
        case .uploadAnswered:
            handleUploadAnswer(response, current, context: &context)
            if current.step == .uploadAnswered {
                pass("upload.done", then: .uploadBatch, current)
            }
        case .initializeSchema:
            handleSchemaAnswer(response, current, context: &context)
        case .catchUp:
            if case .recordsFetched(let results) = response {
                catchUp(results, context: &context)
            }
        default:
            // Only the steps above send requests, and a run's step does not change while it
            // awaits an answer (`abortRun` and the end of a run stop awaiting it).
            preconditionFailure("sds: an answer awaited at \(current.step), which sends nothing")
        }
    }

    // The parts of an answer the engine keeps are copied from the answer where it lies, in
    // functions of their own (`@inline(never)`): bound from the borrowed answer and stored at once,
    // they make the compiler copy the whole answer (every array and token retained) and destroy
    // what was not kept, for every answer. Handed on borrowed, the answer is only read, and each
    // function copies just what it returns.

    /// A database token of an answer, copied.
    @inline(never)
    private static func copied(_ token: DatabaseChangeToken) -> DatabaseChangeToken { token }

    /// The download page of a zone-changes answer (`records` as read, BIG-2).
    @inline(never)
    /// A downloaded page without the old records of moved models (ID-4), checked against this
    /// device's saves of the app's zone on the way (DR-4).
    private func keptPage(_ page: consuming DownloadPage, context: SDSContext) -> DownloadPage {
        if page.sharedZone == nil && !appZoneSaves.isEmpty { forgetSavesSavedOver(page.records) }
        let kept = context.syncData.recordZones.isEmpty
            ? page : withoutMovedRecords(page, context: context)
        if let zone = kept.sharedZone, !appZoneSaves.isEmpty {
            traceSavesOnOldRecords(kept.records, zone: zone, context: context)
        }
        return kept
    }

    private static func page(
        sharedZone: ZoneID?, records: consuming [CloudRecord], deletions: [RecordDeletion],
        token: ZoneChangeToken, moreComing: Bool
    ) -> DownloadPage {
        DownloadPage(sharedZone: sharedZone, records: records, deletions: deletions,
                     token: token, moreComing: moreComing)
    }

    private func handleAccountStatus(
        _ response: CloudResponse,
        _ current: SyncRun,
        context: inout SDSContext
    ) {
        guard case .accountStatus(let status) = response, status == .available,
              let account = context.account else {
            var error = CloudError(.notAuthenticated, message: "no iCloud account")
            if case .accountStatus(.temporarilyUnavailable) = response {
                error = CloudError(.accountTemporarilyUnavailable,
                    message: "the account is temporarily unavailable")
            }
            abortRun(current, error: error, context: &context)
            return
        }
        accountChecked = true
        if let previous = context.syncData.account, previous != account {
            startOverWithAccount(account, context: &context)
        } else if context.syncData.account == account {
            effects.addTrace(detailed: context.isTracing, kind: "account.same",
                details: [TraceField("account", .string(account))], rules: ["ACCT-1"])
        }
        context.syncData.account = account
        effects.addTrace(detailed: context.isTracing,
            kind: "account.checked",
            details: [TraceField("account", .string(account))],
            rules: ["HDO-2"]
        )
        // SCHEMA-3 asked for before this run started is attempted once the account is known
        // (one asked for while the check was under way waits for the next run, as before).
        let attemptsSchema = current.carriesSchema && schemaRequested
        current.step = attemptsSchema ? .initializeSchema(phase: 0) : .fetchDatabase
    }

    /// ERR-1 / ERR-2: what the database feed says about the app's zone.
    private func handleDatabaseChanges(
        changed: [ZoneID],
        deleted: [ZoneDeletion],
        _ current: SyncRun,
        context: inout SDSContext
    ) {
        let zone = appZone(context)
        current.step = .ensureZone
        if let deletion = deleted.first(where: { $0.zone == zone }) {
            if deletion.reason == .purged && !changed.contains(zone) {
                userDeletedZone(current, context: &context)
                return
            }
            if context.syncData.zoneCreated || !context.syncData.zoneToken.isNil {
                zoneMissing(recreatedByAnother: changed.contains(zone), context: &context)
            }
        }
        if changed.contains(zone) && !context.syncData.zoneCreated
           && context.syncData.zoneToken.isNil {
            // The zone exists (another device created it): no need to save it.
            context.syncData.zoneCreated = true
        }
    }

    /// ERR-1: the zone is gone; it is created again and every local model is uploaded
    /// without overwriting what is in it (ADOPT-2).
    func zoneMissing(recreatedByAnother: Bool, context: inout SDSContext) {
        if recreatedByAnother { noteRecordsBeforeZoneLoss(context: &context) }
        context.syncData.zoneCreated = false
        context.syncData.zoneToken = nil
        context.syncData.records.removeAllChangeTags()
        context.syncData.parents = [:]
        let zone = appZone(context)
        for id in context.syncData.records.boundModels {
            guard let model = context.store.model(id),
                  let entity = entities.named(model.entity) else { continue }
            // ERR-1 refills the app's zone: copies of other users' shares live in theirs.
            if let name = context.syncData.recordName(of: id),
               self.zone(ofRecord: name, model: id, context: context) != zone {
                // ID-4: a model of this zone moving into a share has no record left to
                // move; its record there is new, saved whole.
                if context.syncData.recordZones[name].map({ $0.owner == context.account }) ?? true,
                   let moving = context.syncData.pending[id] {
                    context.syncData.pending[id] = wholeRecord(moving, of: entity)
                }
                continue
            }
            var pending = context.syncData.pending[id] ?? PendingChange()
            pending.isInsert = true
            pending.isAdoption = true
            for key in entity.synchronizedKeys where pending.keys[key] == nil {
                context.syncData.editVersion += 1
                pending.keys[key] = context.syncData.editVersion
            }
            context.syncData.pending[id] = pending
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "models.adopted",
            details: [TraceField("reason", .string("the zone is missing"))],
            rules: ["ADOPT-1"]
        )
        effects.addTrace(detailed: context.isTracing,
            kind: "zone.missing",
            details: [TraceField("zone", .string(appZone(context).description)),
                      TraceField("recreatedByAnotherDevice", .bool(recreatedByAnother))],
            rules: ["ERR-1"]
        )
    }

    /// ERR-2: nothing is uploaded again; synchronizing stops until `start()` or a launch.
    func userDeletedZone(_ current: SyncRun, context: inout SDSContext) {
        zonePurged = true
        context.syncData.zoneCreated = false
        context.syncData.zoneToken = nil
        let error = CloudError(.userDeletedZone, message: "Zone was purged by user")
        effects.addTrace(detailed: context.isTracing, kind: "zone.user-deleted",
            details: [TraceField("error", .string(error.description))], rules: ["ERR-2"])
        current.awaiting = nil
        current.step = .finish
    }

    /// An operation-level error during a step that is not an upload.
    private func handleFailure(_ error: CloudError, _ current: SyncRun, context: inout SDSContext) {
        switch (current.step, error.code) {
        case (.fetchSharedDatabase, .changeTokenExpired):
            context.syncData.sharedDatabaseToken = nil
        case (.fetchSharedPage(let zone), .changeTokenExpired):
            context.syncData.sharedZoneTokens[zone] = nil
        case (.fetchSharedPage(let zone), .zoneNotFound),
        (.fetchSharedPage(let zone), .permissionFailure):
            // The share is gone from this account's shared database.
            removeSharedCopies(of: zone, rule: nil, context: &context)
            current.step = nextSharedZone(current)
        case (.fetchSharedDatabase, _):
            // A shared database that cannot be read does not stop the app's own sync.
            effects.addTrace(detailed: context.isTracing, kind: "shared.download-failed",
                details: [TraceField("error", .string(error.description))], rules: [])
            current.step = .downloadDone
        case (.fetchDatabase, .changeTokenExpired):
            context.syncData.databaseToken = nil
            effects.addTrace(detailed: context.isTracing, kind: "token.expired",
                details: [TraceField("feed", .string("database"))], rules: [])
        case (.fetchPage, .zoneNotFound), (.ensureSubscription, .zoneNotFound):
            zoneMissing(recreatedByAnother: false, context: &context)
            current.step = .ensureZone
        case (_, .userDeletedZone):
            userDeletedZone(current, context: &context)
        case (.fetchPage, .changeTokenExpired):
            context.syncData.zoneToken = nil
            context.syncData.expiredTokenRefetch = true
            context.syncData.refetchedRecords = []
            effects.addTrace(detailed: context.isTracing, kind: "token.expired",
                details: [TraceField("feed", .string("zone"))], rules: [])
        default:
            let isDownload = current.step.isDownload || current.step == .fetchDatabase
            if isDownload, context.syncData.needsFullDownload {
                context.syncData.fullDownloadAttempts += 1
            }
            if isDownload && uploadsDespiteFailedDownload(error) {
                // SYNC-6: the changes are uploaded anyway; the download is tried again later.
                current.downloadFailed = true
                effects.addTrace(detailed: context.isTracing,
                    kind: "download.failed-upload-anyway",
                    details: [TraceField("error", .string(error.description))],
                    rules: ["SYNC-6"]
                )
                scheduleRetry(after: error, context: context)
                current.step = .uploadStart
                return
            }
            if current.step.isDownload { current.downloadFailed = true }
            abortRun(current, error: error, context: &context)
        }
    }

    /// Download failures after which uploads can still work (not the account, the network or
    /// a throttle of every request).
    private func uploadsDespiteFailedDownload(_ error: CloudError) -> Bool {
        switch error.code {
        case .notAuthenticated, .accountTemporarilyUnavailable, .networkUnavailable,
             .networkFailure, .requestRateLimited, .userDeletedZone, .zoneNotFound:
            return false
        default:
            return true
        }
    }
}
