import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// Handles the answer to an upload: clears what was uploaded, keeps what changed again,
    /// and sorts the failures by what CloudKit asks of the client.
    func handleUploadAnswer(
        _ response: CloudResponse,
        _ current: SyncRun,
        context: inout SDSContext
    ) {
        // SYNC-6: the answer to the check of which edited records still exist.
        if handleExistenceCheckAnswer(response, current) { return }
        // BIG-3: the answer to the fetch of records whose overflow asset is involved.
        if handleOverflowFetchAnswer(response, current, context: &context) {
            return
        }
        // Moved out of the run, not copied and then cleared.
        guard let batch = current.upload.batch.take() else { return }
        guard case .recordsModified(let results) = response else {
            if case .failure(let error) = response {
                uploadRequestFailed(error, batch: batch, current, context: &context)
            }
            return
        }
        var retryError: CloudError?
        var zoneGone = false
        context.syncData.makeRoomInDeletedHere(for: batch.deletedNames.count)
        // Each result read in place (`results[index]`): a loop's element was a copy.
        for index in results.indices {
            // A saved record's parts read where it lies (`SavedRecordParts`): a switch over
            // the result copied the whole record first.
            if let saved = results.withUnsafeBufferPointer({ $0[index].savedParts }) {
                context.syncData.unanswered[saved.recordName] = nil
                uploaded(saved, of: results, batch: batch, at: index, context: &context)
                continue
            }
            switch results[index] {
            case .saved:
                continue
            case .deleted(let name):
                if !context.syncData.staleCopies.isEmpty,
                   staleCopyDeleted(name, zone: batch.zone, context: &context) { continue }
                if !context.syncData.aside.isEmpty {
                    traceKeptAsideDeletedWith(name, context: context)
                }
                context.syncData.deletedHere.insert(name)
                context.syncData.overflow.removeEntry(at: name)
                context.syncData.pendingDeletions[name] = nil
                context.syncData.setChangeTag(nil, for: name)
                context.syncData.parents.removeEntry(at: name)
                if !context.syncData.pending.isEmpty {
                    saveAfterItsDeletion(name, current, context: context)
                }
            case .failed(let name, let error):
                if !context.syncData.staleCopies.isEmpty, batch.deletedNames.contains(name),
                   staleCopyDeleted(name, zone: batch.zone, failed: error, context: &context) {
                    continue
                }
                context.syncData.unanswered[name] =
                    batch.index(of: name, near: index).flatMap { batch.saved[$0].earlierUnanswered }
                effects.addTrace(detailed: context.isTracing,
                    kind: "upload.item.failed",
                    details: [TraceField("record", .string(name)),
                              TraceField("error", .string(error.description))],
                    rules: []
                )
                if itemFailed(name, error: error, at: index, batch: batch, current,
                    retryError: &retryError, zoneGone: &zoneGone, context: &context) == .stop {
                    return
                }
            }
        }
        finishUploadAnswer(retryError: retryError, zoneGone: zoneGone, context: &context)
    }

    /// ID-1, SYNC-1: a model made again under the name of a record deleted here (an identity
    /// deleted and created again) waits for that deletion; once it is answered, the save is
    /// made in this run (the deletion's attempt held the name for the whole run).
    private func saveAfterItsDeletion(_ name: String, _ current: SyncRun, context: SDSContext) {
        guard let model = context.syncData.model(forRecord: name),
              context.syncData.pending.contains(model) else { return }
        current.upload.attempted.remove(name)
    }

    /// ERR-3, ERR-7: after the items, a missing zone is recovered, a throttled part retried,
    /// and a batch with rejected records reported incomplete.
    private func finishUploadAnswer(
        retryError: CloudError?, zoneGone: Bool, context: inout SDSContext
    ) {
        if zoneGone {
            zoneMissing(recreatedByAnother: false, context: &context)
            wantsSync = true
        }
        if let retryError {
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.partially-throttled",
                details: [TraceField("retryAfter",
                    .string(retryError.retryAfter?.description ?? "back-off"))],
                rules: ["ERR-3"]
            )
            scheduleRetry(after: retryError, context: context)
        } else {
            backoffFailures = 0
        }
        if !context.syncData.rejected.isEmpty {
            effects.addTrace(detailed: context.isTracing, kind: "upload.incomplete", details: [],
                rules: ["ERR-7"])
        }
    }

    /// Whether the answer's other results are still handled after a failed item.
    private enum ItemFailureOutcome { case next, stop }

    /// SYNC-4: a whole request refused; its saves' unanswered entries are restored unless
    /// the connection was lost.
    private func uploadRequestFailed(
        _ error: CloudError, batch: UploadBatch, _ current: SyncRun,
        context: inout SDSContext
    ) {
        // SYNC-4: only a lost connection leaves open whether iCloud applied the saves;
        // another error says this send was not, but an earlier unanswered one may have.
        if error.code != .networkFailure && error.code != .serverResponseLost {
            // Each record's entry set on its own, in the request's order (not sorted
            // by name first: the saves are a list, no hashing order reaches this).
            for index in batch.saved.indices {
                context.syncData.unanswered[batch.saved[index].name] =
                    batch.saved[index].earlierUnanswered
            }
        }
        handleUploadFailure(error, current, context: &context)
    }

    /// ERR-3, ERR-4, ERR-7, ADOPT-2, BIG-1: one failed item is retried later, pauses
    /// uploads, marks the zone gone, adopts the server's record, or is set aside.
    private func itemFailed(
        _ name: String, error: CloudError, at index: Int, batch: UploadBatch,
        _ current: SyncRun, retryError: inout CloudError?, zoneGone: inout Bool,
        context: inout SDSContext
    ) -> ItemFailureOutcome {
        switch error.code {
        case .requestRateLimited, .serviceUnavailable, .zoneBusy, .batchRequestFailed,
             .networkFailure, .networkUnavailable, .serverResponseLost:
            if retryError?.retryAfter ?? .zero <= error.retryAfter ?? .zero {
                retryError = error
            }
        case .quotaExceeded where batch.zone != appZone(context):
            pauseSharedUploads(error, context: context)
        case .quotaExceeded:
            pauseForQuota(error, context: context)
        case .zoneNotFound:
            zoneGone = true
        case .userDeletedZone:
            userDeletedZone(current, context: &context)
            return .stop
        case .serverRecordChanged where batch.isAdoption:
            // BIG-3: the asset's contents do not come with the error; fetch them first.
            if needsOverflowContents(error.serverRecord, current) { return .next }
            if let server = error.serverRecord {
                adoptServerRecord(server, batch: batch, at: index, context: &context)
            }
        default:
            // BIG-1, BIG-2: a record too large is tried once more on top of iCloud's copy.
            if retryTooLarge(name, error: error, current, context: context) { return .next }
            if error.code == .referenceViolation {
                traceParentDeletionMissed(name, error: error, batch: batch, at: index,
                                          context: context)
            }
            traceRejection(name, error: error, detailed: context.isTracing)
            setAside(
                name, error: error, context: context.now, detailed: context.isTracing,
                syncData: &context.syncData)
        }
        return .next
    }

    func handleUploadFailure(_ error: CloudError, _ current: SyncRun, context: inout SDSContext) {
        switch error.code {
        case .quotaExceeded:
            pauseForQuota(error, context: context)
            current.step = .finish
        case .zoneNotFound:
            zoneMissing(recreatedByAnother: false, context: &context)
            wantsSync = true
            current.step = .finish
        case .userDeletedZone:
            userDeletedZone(current, context: &context)
        default:
            abortRun(current, error: error, context: &context)
        }
    }

    /// A saved record (the answer's result at `index`): the uploaded keys are no longer
    /// pending, unless edited again meanwhile.
    private func uploaded(
        _ record: SavedRecordParts, of results: [ItemResult], batch: UploadBatch, at index: Int,
        context: inout SDSContext
    ) {
        let name = record.recordName
        context.syncData.setChangeTag(record.changeTag, for: name)
        // (Empty maps are changed only to add an entry, `canStoreNow`.)
        if !record.parent.isNil || !context.syncData.parents.isEmpty {
            context.syncData.parents.setEntry(record.parent, at: name)
        }
        // The request's save of the record, found once (at the result's own index).
        let found = batch.index(of: name, near: index)
        if !context.syncData.sharedZones.isEmpty, batch.zone.owner == context.account,
           let found, let time = record.modificationTime {
            appZoneSaves[name] = AppZoneSave(time: time, record: results[index].savedRecord,
                                             keys: batch.saved[found].keys)
        }
        if !record.hasOverflowField {
            // No asset (observeOverflow's first case, without sorting the keys for it).
            if !context.syncData.overflow.isEmpty {
                context.syncData.overflow.removeEntry(at: name)
            }
        } else {
            let sentKeys = found.map { batch.saved[$0].keys } ?? [:]
            observeOverflow(results[index].savedRecord, uploadedKeys: sentKeys.keys.sorted(),
                            context: &context)
        }
        guard let found else { return }
        // (The save read where it lies in the batch, not copied out of it.)
        let id = batch.saved[found].model
        if let parentKey = entities.named(record.recordType)?.parentRelationship?.name,
           batch.saved[found].keys[parentKey] != nil {
            // LIM-3: this device moved the record; a device that deletes its new parent
            // without knowing it deletes it with that parent.
            context.syncData.uploadedMoves[name] = record.parent == nil ? nil : record.changeTag
        }
        // (The list searched last: the other two are cheaper and usually false.)
        if !batch.isAdoption, record.creationTime != record.modificationTime,
           batch.saved[found].isInsert {
            // Another device uploaded this identity first: the changed keys were saved over
            // its record, the last upload of a key winning.
            effects.addTrace(detailed: context.isTracing,
                kind: "upload.saved-over-existing",
                details: [TraceField("record", .string(name))],
                rules: ["ID-3"]
            )
        }
        guard context.syncData.pending.contains(id) else { return }
        let sent = batch.saved[found].keys
        context.syncData.pending.modify(id) { pending in
            pending.isInsert = false
            pending.isAdoption = false
            pending.movedFrom = []
            if pending.keys == sent {
                // Not edited since the send (usually the very map sent, which the comparison
                // tells at once): every key is uploaded. Clearing them one by one would copy
                // the map first, shared as it is with the batch.
                // (Emptied by `init()`: the literal `[:]` is a call.)
                pending.keys = Dictionary()
            } else {
                // Each key is cleared on its own: their order cannot matter.
                for (key, version) in sent { // tidy: ordered per key
                    if pending.keys[key] == version { pending.keys[key] = nil }
                }
            }
        }
    }

    /// ADOPT-2: a record of the same name exists; it wins completely, also over values it
    /// lacks. Keys edited since (ADOPT-3) stay pending and are uploaded like any change.
    /// `index`: where the answer's result for it is (its save is looked for there first).
    func adoptServerRecord(
        _ server: CloudRecord,
        batch: UploadBatch,
        at index: Int,
        context: inout SDSContext
    ) {
        guard let found = batch.index(of: server.recordName, near: index),
              case let saved = batch.saved[found],
              var pending = context.syncData.pending[saved.model],
              let model = context.store.model(saved.model),
              let entity = entities.named(model.entity) else { return }
        let id = saved.model
        let sent = saved.keys
        for key in sent.keys.sorted() where pending.keys[key] == sent[key]
            && !pending.adoptionEdits.contains(key) {
            pending.keys[key] = nil
        }
        let kept = pending.sortedKeys
        pending.adoptionEdits = []
        pending.isAdoption = false
        pending.isInsert = false
        context.syncData.setChangeTag(server.changeTag, for: server.recordName)
        context.syncData.parents[server.recordName] = server.parent
        context.syncData.pending[id] = pending.keys.isEmpty ? nil : pending
        var values: [String: PropertyValue] = [:]
        for attribute in entity.synchronizedAttributes where !kept.contains(attribute.name) {
            let value = server.fields[attribute.name].flatMap {
                RecordMapping.attributeValue($0, type: attribute.type)
            }
            if model.values[attribute.name] != value { values[attribute.name] = .attribute(value) }
        }
        for relationship in entity.synchronizedToOneRelationships
            where !kept.contains(relationship.name) {
            var target: ModelID?
            if case .reference(let name, _)? = server.fields[relationship.name] {
                target = context.syncData.model(forRecord: name)
            }
            if model.toOne[relationship.name] != target {
                values[relationship.name] = .relationship(target)
            }
        }
        if !values.isEmpty {
            var transaction = Transaction()
            transaction.append(.update(id, values: values))
            _ = try? context.store.save(transaction, author: Self.author)
            recordLocalChanges(context: &context)
        }
        effects.addTrace(detailed: context.isTracing,
            kind: "adopt.record-wins",
            details: [TraceField("record", .string(server.recordName)),
                      TraceField("keptLocalEdits", .list(kept.map { .string($0) }))],
            rules: kept.isEmpty ? ["ADOPT-2"] : ["ADOPT-2", "ADOPT-3"]
        )
    }

    /// ERR-5: the share owner's storage is full: only uploads to shares pause.
    private func pauseSharedUploads(_ error: CloudError, context: SDSContext) {
        guard sharedQuotaPausedUntil == nil else { return }
        sharedQuotaPausedUntil = context.now.adding(Self.quotaPause)
        effects.append(.setTimer(.quotaPause, after: Self.quotaPause))
        effects.addTrace(detailed: context.isTracing,
            kind: "quota.shared-uploads-paused",
            details: [TraceField("until",
                .string((context.now.adding(Self.quotaPause)).description))],
            rules: ["ERR-5"]
        )
    }

    /// ERR-4: uploads pause for 30 minutes; records are not set aside.
    private func pauseForQuota(_ error: CloudError, context: SDSContext) {
        guard quotaPausedUntil == nil else { return }
        quotaPausedUntil = context.now.adding(Self.quotaPause)
        effects.append(.setTimer(.quotaPause, after: Self.quotaPause))
        effects.addTrace(detailed: context.isTracing,
            kind: "quota.paused",
            details: [TraceField("until",
                .string((context.now.adding(Self.quotaPause)).description))],
            rules: ["ERR-4"]
        )
    }

    /// SCHEMA-4 / ERR-7: a record CloudKit rejects is set aside for an hour or until it
    /// changes; other changes go on.
    func setAside(
        _ name: String, error: CloudError, context now: SimTime, detailed: Bool,
        syncData: inout SDSSyncData
    ) {
        let until = now.adding(Self.rejectionPause)
        let hadAny = !syncData.rejected.isEmpty
        syncData.rejected[name] = RejectedRecord(until: until, error: error)
        effects.addTrace(detailed: detailed,
            kind: "record.set-aside",
            details: [TraceField("record", .string(name)),
                      TraceField("error", .string(error.description)),
                      TraceField("until", .string(until.description))],
            rules: ["SCHEMA-4", "ERR-7"]
        )
        if !hadAny { effects.append(.setTimer(.rejectedRetry, after: Self.rejectionPause)) }
    }
}

extension SDSSyncData {
    /// Room in `deletedHere` for `count` more names, and at first for a run's usual few, made
    /// at once (not grown 1, 3, 6, … each growth hashing every name again). Asked only when
    /// short: `reserveCapacity` runs unspecialized.
    fileprivate mutating func makeRoomInDeletedHere(for count: Int) {
        let needed = deletedHere.count + count
        guard needed > deletedHere.capacity else { return }
        deletedHere.reserveCapacity(max(needed, 2 * deletedHere.capacity, 24))
    }
}
