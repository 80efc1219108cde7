import CloudSim
import Kernel
import SyncContract

extension CKSyncEngine {
    enum OperationKind: String, Hashable, Sendable {
        case fetch
        case send
    }

    struct Queued: Hashable {
        var kind: OperationKind
        var reason: SyncReason
        var fetchOptions: FetchChangesOptions
        var sendOptions: SendChangesOptions
    }

    enum Step: Hashable {
        case none
        case account
        case subscription
        case databaseChanges
        case zoneChanges(ZoneID)
        case modifyZones(saves: [ZoneID], deletes: [ZoneID])
        case modifyRecords(ZoneID)
    }

    /// One `modifyRecords` request of a record batch in flight: its zone (which holds the
    /// deletes), and saves that may belong to other zones of the private database.
    struct ZonePart: Hashable {
        var zone: ZoneID
        var saves: [RecordSave]
        var deletes: [RecordID]
    }

    /// The requests a batch goes out as. In the private database a batch that spans zones is
    /// one `modifyRecords` (CKModifyRecordsOperation spans zones; atomicity is per zone):
    /// every save, and the deletes of the request's zone (the first delete's, else the first
    /// save's); deletes of further zones go in one more request per zone, in batch order. The
    /// shared database answers per zone's owner and share, so there each zone is a request.
    static func requestParts(
        of batch: RecordZoneChangeBatch, database: DatabaseScope
    ) -> [ZonePart] {
        var parts: [ZonePart] = []
        func part(for zone: ZoneID) -> Int {
            if let index = parts.firstIndex(where: { $0.zone == zone }) { return index }
            parts.append(ZonePart(zone: zone, saves: [], deletes: []))
            return parts.count - 1
        }
        if database == .privateDatabase {
            guard let first = batch.recordIDsToDelete.first?.zoneID
                  ?? batch.recordsToSave.first?.record.zone
            else { return [] }
            let main = part(for: first)
            parts[main].saves = batch.recordsToSave
            for id in batch.recordIDsToDelete { parts[part(for: id.zoneID)].deletes.append(id) }
            return parts
        }
        for save in batch.recordsToSave { parts[part(for: save.record.zone)].saves.append(save) }
        for id in batch.recordIDsToDelete { parts[part(for: id.zoneID)].deletes.append(id) }
        return parts
    }

    /// What the engine still has to do after an event whose handling the delegate deferred.
    enum DeferredCompletion {
        case zonePage(ZoneID, moreComing: Bool)
        case willSend
    }

    struct Run {
        var queued: Queued
        var awaiting: RequestID?
        var step: Step = .none
        var begun = false
        var databaseTokenReset = false
        var zoneTokensReset: [ZoneID] = []
        var batches = 0
        var parts: [ZonePart] = []
        var sent = SentRecordZoneChanges()
        var retryError: CloudError?
        var queuedAtomic = false
        /// `CKAccountChanged` came while the operation ran: its requests may carry the
        /// account the device had before.
        var accountChanged = false
    }

    func request(
        _ kind: OperationKind, reason: SyncReason, fetchOptions: FetchChangesOptions,
        sendOptions: SendChangesOptions
    ) {
        let item = Queued(kind: kind, reason: reason, fetchOptions: fetchOptions,
            sendOptions: sendOptions)
        if queued.contains(where: {
            $0.kind == kind && $0.fetchOptions == fetchOptions && $0.sendOptions == sendOptions
        }) {
            return
        }
        queued.append(item)
        if current == nil { startNext() }
    }

    func startNext() {
        guard current == nil, !queued.isEmpty else { return }
        if dormant {
            effects.append(.trace(kind: "cksync.dormant", details: [
                TraceField("database", .string(database.rawValue)),
            ], rules: []))
            queued = []
            return
        }
        current = Run(queued: queued.removeFirst())
        prelude()
    }

    /// The account check and the subscription, before an operation's first event.
    func prelude() {
        if needsAccountCheck {
            send(.fetchUserRecordID, step: .account)
        } else if !state.subscriptionSaved {
            send(.saveDatabaseSubscription(scope: database), step: .subscription)
        } else {
            begin()
        }
    }

    func begin() {
        guard let run = current else { return }
        current?.begun = true
        switch run.queued.kind {
        case .fetch:
            deliver(.willFetchChanges(fetchContext))
            fetchDatabaseChanges()
        case .send:
            deliver(.willSendChanges(sendContext))
            // The delegate may finish `willSendChanges` later: the batch waits for it.
            if keptForDelegate(.willSend) { return }
            sendDatabaseChanges()
        }
    }

    var fetchContext: FetchChangesContext {
        FetchChangesContext(reason: current?.queued.reason ?? .manual,
            options: current?.queued.fetchOptions ?? FetchChangesOptions())
    }

    var sendContext: SendChangesContext {
        SendChangesContext(reason: current?.queued.reason ?? .manual,
            options: current?.queued.sendOptions ?? SendChangesOptions())
    }

    /// Whether the delegate deferred the event just delivered: the rest of the step is kept
    /// for `completeDeferredEvent()`.
    func keptForDelegate(_ rest: DeferredCompletion) -> Bool {
        guard completionDeferredByDelegate else { return false }
        completionDeferredByDelegate = false
        deferredCompletion = rest
        return true
    }

    func finish(failure: CloudError? = nil) {
        guard let run = current else { return }
        switch run.queued.kind {
        case .fetch: lastFetchFailure = failure
        case .send: lastSendFailure = failure
        }
        if run.begun {
            switch run.queued.kind {
            case .fetch: deliver(.didFetchChanges(fetchContext))
            case .send: deliver(.didSendChanges(sendContext))
            }
        }
        if stateDirty { deliverStateUpdate() }
        current = nil
        startNext()
    }

    /// An operation-level error that ends the operation: retried later if retryable.
    func failOperation(_ error: CloudError) {
        guard let run = current else { return }
        effects.append(.trace(kind: "cksync.operation-failed", details: [
            TraceField("database", .string(database.rawValue)),
            TraceField("operation", .string(run.queued.kind.rawValue)),
            TraceField("error", .string(error.description)),
        ], rules: []))
        if error.code == .notAuthenticated, run.accountChanged {
            // A sign-in came after the request left: the answer speaks for the account the
            // device had then; the next operation checks the account it has now.
            effects.append(.trace(kind: "cksync.account-rechecked", details: [
                TraceField("database", .string(database.rawValue)),
            ], rules: []))
        } else if error.code == .notAuthenticated {
            signedOut()
        } else if error.code.isTransient {
            scheduleRetry(run.queued.kind, after: error)
        }
        finish(failure: error)
    }

    func received(_ response: CloudResponse, step: Step) {
        switch step {
        case .none:
            preconditionFailure("an answer to no request")
        case .account:
            accountAnswered(response)
        case .subscription:
            if case .failure(let error) = response { return failOperation(error) }
            state.subscriptionSaved = true
            stateDirty = true
            prelude()
        case .databaseChanges:
            databaseChangesAnswered(response)
        case .zoneChanges(let zone):
            zoneChangesAnswered(response, zone: zone)
        case .modifyZones(let saves, let deletes):
            zonesModified(response, saves: saves, deletes: deletes)
        case .modifyRecords(let zone):
            recordsModified(response, zone: zone)
        }
    }

    // MARK: Account

    func accountAnswered(_ response: CloudResponse) {
        switch response {
        case .userRecordID(let user):
            needsAccountCheck = false
            let previous = state.lastUserRecordName
            if previous == nil {
                state.lastUserRecordName = user
                deliver(.accountChange(AccountChange(changeType: .signIn(currentUser: user))))
                deliverStateUpdate()
            } else if let previous, previous != user {
                state.reset()
                state.lastUserRecordName = user
                deliver(.accountChange(AccountChange(
                    changeType: .switchAccounts(previousUser: previous, currentUser: user))))
                deliverStateUpdate()
            }
            prelude()
        case .failure(let error):
            failOperation(error)
        default:
            preconditionFailure("fetchUserRecordID answered \(response)")
        }
    }

    /// No account: the state is reset and the engine stays dormant until an account change.
    func signedOut() {
        dormant = true
        needsAccountCheck = true
        queued = []
        guard let previous = state.lastUserRecordName else { return }
        state.reset()
        state.lastUserRecordName = nil
        deliver(.accountChange(AccountChange(changeType: .signOut(previousUser: previous))))
        deliverStateUpdate()
    }

    // MARK: Fetch

    func fetchDatabaseChanges() {
        send(.fetchDatabaseChanges(scope: database, token: state.databaseToken),
            step: .databaseChanges)
    }

    func databaseChangesAnswered(_ response: CloudResponse) {
        switch response {
        case .databaseChanges(let changed, let deleted, let token, let moreComing):
            for deletion in deleted {
                state.zoneTokens[deletion.zone] = nil
                state.zoneIDsWithUnfetchedServerChanges.removeAll { $0 == deletion.zone }
            }
            for zone in changed where !state.zoneIDsWithUnfetchedServerChanges.contains(zone) {
                state.zoneIDsWithUnfetchedServerChanges.append(zone)
            }
            state.databaseToken = token
            if !changed.isEmpty || !deleted.isEmpty {
                deliver(.fetchedDatabaseChanges(FetchedDatabaseChanges(modifications: changed,
                    deletions: deleted)))
            }
            deliverStateUpdate()
            if moreComing { fetchDatabaseChanges() } else { fetchNextZone() }
        case .failure(let error) where error.code == .changeTokenExpired
            && current?.databaseTokenReset == false:
            // Handled internally: the token is dropped and the feed fetched from the start.
            current?.databaseTokenReset = true
            effects.append(.trace(kind: "cksync.token-expired", details: [
                TraceField("database", .string(database.rawValue)),
            ], rules: []))
            state.databaseToken = nil
            stateDirty = true
            fetchDatabaseChanges()
        case .failure(let error):
            failOperation(error)
        default:
            preconditionFailure("fetchDatabaseChanges answered \(response)")
        }
    }

    func fetchNextZone() {
        let options = current?.queued.fetchOptions ?? FetchChangesOptions()
        guard let zone = state.zoneIDsWithUnfetchedServerChanges
            .first(where: options.contains) else {
            retryAttempts[.fetch] = 0
            return finish()
        }
        deliver(.willFetchRecordZoneChanges(zoneID: zone))
        fetchZoneChanges(zone)
    }

    func fetchZoneChanges(_ zone: ZoneID) {
        send(.fetchZoneChanges(
            scope: database, zone: zone, token: state.zoneTokens[zone],
            resultsLimit: fetchResultsLimit),
            step: .zoneChanges(zone))
    }

    func zoneChangesAnswered(_ response: CloudResponse, zone: ZoneID) {
        switch response {
        case .zoneChanges(let records, let deletions, let token, let moreComing):
            state.zoneTokens[zone] = token
            if !records.isEmpty || !deletions.isEmpty {
                deliver(.fetchedRecordZoneChanges(FetchedRecordZoneChanges(
                    modifications: records,
                    deletions: deletions.map {
                        FetchedRecordZoneChanges.Deletion(
                            recordID: RecordID(recordName: $0.recordName, zoneID: zone),
                            recordType: $0.recordType)
                    })))
                if keptForDelegate(.zonePage(zone, moreComing: moreComing)) { return }
            }
            finishZonePage(zone, moreComing: moreComing)
        case .failure(let error) where error.code == .changeTokenExpired
            && current?.zoneTokensReset.contains(zone) == false:
            current?.zoneTokensReset.append(zone)
            effects.append(.trace(kind: "cksync.token-expired", details: [
                TraceField("database", .string(database.rawValue)),
                TraceField("zone", .string(zone.description)),
            ], rules: []))
            state.zoneTokens[zone] = nil
            stateDirty = true
            fetchZoneChanges(zone)
        case .failure(let error) where error.code.isTransient:
            // The zone stays unfetched; the fetch ends and is retried.
            deliver(.didFetchRecordZoneChanges(zoneID: zone, error: error))
            failOperation(error)
        case .failure(let error):
            // zoneNotFound, userDeletedZone, …: handed to the delegate; the zone is done.
            state.zoneIDsWithUnfetchedServerChanges.removeAll { $0 == zone }
            state.zoneTokens[zone] = nil
            deliver(.didFetchRecordZoneChanges(zoneID: zone, error: error))
            deliverStateUpdate()
            fetchNextZone()
        default:
            preconditionFailure("fetchZoneChanges answered \(response)")
        }
    }

    /// After a page of a zone was handled: its token persisted (`stateUpdate`), then the next
    /// page, or the zone's end and the next zone.
    func finishZonePage(_ zone: ZoneID, moreComing: Bool) {
        if !moreComing { state.zoneIDsWithUnfetchedServerChanges.removeAll { $0 == zone } }
        deliverStateUpdate()
        if moreComing { return fetchZoneChanges(zone) }
        deliver(.didFetchRecordZoneChanges(zoneID: zone, error: nil))
        fetchNextZone()
    }

    // MARK: Send

    func sendDatabaseChanges() {
        let options = current?.queued.sendOptions ?? SendChangesOptions()
        let changes = state.pendingDatabaseChanges.filter { options.contains($0.zoneID) }
        guard !changes.isEmpty else { return nextBatch() }
        var saves: [ZoneID] = []
        var deletes: [ZoneID] = []
        for change in changes {
            switch change {
            case .saveZone(let zone): saves.append(zone)
            case .deleteZone(let zone): deletes.append(zone)
            }
        }
        state.readdedZonesWhileInFlight = []
        send(.modifyZones(scope: database, save: saves, delete: deletes),
            step: .modifyZones(saves: saves, deletes: deletes))
    }

    func zonesModified(_ response: CloudResponse, saves: [ZoneID], deletes: [ZoneID]) {
        var sent = SentDatabaseChanges()
        switch response {
        case .zonesModified(let saved, let deleted, let failed):
            sent.savedZones = saved
            sent.deletedZoneIDs = deleted
            for zone in saved { state.settle(.saveZone(zone)) }
            for zone in deleted { state.settle(.deleteZone(zone)) }
            // A zone named while signed out has no owner (the default one): the cloud answers
            // it under the signed-in account, and the change sent is the one settled.
            let resolved = { (zone: ZoneID, answered: [ZoneID]) in
                zone.owner.isEmpty && answered.contains { $0.name == zone.name }
                    && !failed.contains { $0.zone == zone }
            }
            for zone in saves where resolved(zone, saved) { state.settle(.saveZone(zone)) }
            for zone in deletes where resolved(zone, deleted) { state.settle(.deleteZone(zone)) }
            // Per-zone failures (e.g. deleting a zone that does not exist answers zoneNotFound
            // for that zone): reported to the delegate as Apple's failedZoneSaves/Deletes;
            // a transient one stays pending for the next send, any other is settled.
            for failure in failed {
                if saves.contains(failure.zone) {
                    sent.failedZoneSaves.append(.init(zoneID: failure.zone, error: failure.error))
                    if !failure.error.code.isTransient { state.settle(.saveZone(failure.zone)) }
                } else {
                    sent.failedZoneDeletes.append(.init(zoneID: failure.zone, error: failure.error))
                    if !failure.error.code.isTransient { state.settle(.deleteZone(failure.zone)) }
                }
            }
        case .failure(let error) where error.code.isTransient:
            return failOperation(error)
        case .failure(let error):
            // Handed to the delegate and dropped from pending.
            sent.failedZoneSaves = saves.map { .init(zoneID: $0, error: error) }
            sent.failedZoneDeletes = deletes.map { .init(zoneID: $0, error: error) }
            for zone in saves { state.settle(.saveZone(zone)) }
            for zone in deletes { state.settle(.deleteZone(zone)) }
        default:
            preconditionFailure("modifyZones answered \(response)")
        }
        state.readdedZonesWhileInFlight = []
        deliver(.sentDatabaseChanges(sent))
        deliverStateUpdate()
        guard current?.batches ?? 0 < Self.maximumBatchesPerSend else { return finish() }
        current?.batches += 1
        nextBatch()
    }

    func nextBatch() {
        guard let run = current else { return }
        let options = run.queued.sendOptions
        if state.pendingDatabaseChanges.contains(where: { options.contains($0.zoneID) })
            && run.batches < Self.maximumBatchesPerSend {
            // Database changes added meanwhile go first (back to step 3 of Apple's order).
            return sendDatabaseChanges()
        }
        guard run.batches < Self.maximumBatchesPerSend else {
            effects.append(.trace(kind: "cksync.batch-limit", details: [
                TraceField("database", .string(database.rawValue)),
            ], rules: []))
            return finish()
        }
        guard let batch = askForBatch(sendContext), batch.itemCount > 0 else {
            retryAttempts[.send] = 0
            return finish()
        }
        current?.batches += 1
        state.hasPendingUntrackedChanges = false
        state.readdedWhileInFlight = []
        let parts = Self.requestParts(of: batch, database: database)
        current?.parts = parts
        current?.sent = SentRecordZoneChanges()
        current?.retryError = nil
        current?.queuedAtomic = batch.atomicByZone
        sendNextPart()
    }

    func sendNextPart() {
        guard let run = current else { return }
        guard let part = run.parts.first else { return batchDone() }
        // Saves use `.ifServerRecordUnchanged`, as CKSyncEngine does (docs/CKSYNCENGINE.md).
        send(.modifyRecords(
            scope: database, zone: part.zone, saves: part.saves,
            deletes: part.deletes.map(\.recordName), policy: .ifServerRecordUnchanged,
            atomic: run.queuedAtomic), step: .modifyRecords(part.zone))
    }

    func recordsModified(_ response: CloudResponse, zone: ZoneID) {
        guard var run = current, !run.parts.isEmpty else { return }
        let part = run.parts.removeFirst()
        switch response {
        case .recordsModified(let results):
            for (index, result) in results.enumerated() {
                let isSave = index < part.saves.count
                switch result {
                case .saved(let record):
                    run.sent.savedRecords.append(record)
                    state.settle(.saveRecord(RecordID(recordName: record.recordName,
                        zoneID: record.zone)))
                case .deleted(let name):
                    let id = RecordID(recordName: name, zoneID: zone)
                    run.sent.deletedRecordIDs.append(id)
                    state.settle(.deleteRecord(id))
                case .failed(let name, let error):
                    let itemZone = isSave ? part.saves[index].record.zone : zone
                    let id = RecordID(recordName: name, zoneID: itemZone)
                    failed(id, isSave: isSave, part: part, error: error, run: &run)
                }
            }
        case .failure(let error):
            // The whole zone's request failed: every item with the operation's error.
            for save in part.saves {
                let id = RecordID(recordName: save.record.recordName, zoneID: save.record.zone)
                failed(id, isSave: true, part: part, error: error, run: &run)
            }
            for id in part.deletes {
                failed(id, isSave: false, part: part, error: error, run: &run)
            }
        default:
            preconditionFailure("modifyRecords answered \(response)")
        }
        current = run
        sendNextPart()
    }

    /// A failed item is reported; a retryable one stays pending (and the send is retried), a
    /// `batchRequestFailed` one stays pending (another item of its atomic zone failed), any
    /// other is dropped from pending: the delegate re-adds it once resolved.
    func failed(_ id: RecordID, isSave: Bool, part: ZonePart, error: CloudError, run: inout Run) {
        if isSave, let save = part.saves.first(where: {
            $0.record.recordName == id.recordName && $0.record.zone == id.zoneID
        }) {
            run.sent.failedRecordSaves.append(.init(record: save.record, error: error))
        } else {
            run.sent.failedRecordDeletes.append(.init(recordID: id, error: error))
        }
        if error.code.isTransient {
            if let previous = run.retryError,
               (previous.retryAfter ?? .zero) >= (error.retryAfter ?? .zero) {
                return
            }
            run.retryError = error
            return
        }
        if error.code == .batchRequestFailed { return }
        state.settle(isSave ? .saveRecord(id) : .deleteRecord(id))
    }

    func batchDone() {
        guard let run = current else { return }
        state.readdedWhileInFlight = []
        deliver(.sentRecordZoneChanges(run.sent))
        deliverStateUpdate()
        if let error = run.retryError {
            if error.code == .notAuthenticated { return failOperation(error) }
            scheduleRetry(.send, after: error)
            return finish(failure: error)
        }
        if endsSendAfterFailedItems,
           !run.sent.failedRecordSaves.isEmpty || !run.sent.failedRecordDeletes.isEmpty {
            return finish()
        }
        nextBatch()
    }
}
