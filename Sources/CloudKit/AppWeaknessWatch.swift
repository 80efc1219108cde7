import CKSyncEngineSim
import CloudSim
import Kernel
import SortedMaps
import SyncContract

/// Watches an app's delegate at the events where its answer can lose data, and traces the
/// weaknesses of docs/APP-RULES.md (APPW-n) there: the app's code is never changed or read.
/// One watch per device and database, kept with the device's files across launches: what the
/// device was given before a kill is what its app may still send back.
final class AppWeaknessWatch {
    /// Per record, the copies the device knew since it last agreed with iCloud on it (APPW-2):
    /// first the answer to its last save, or the first copy fetched of a record it never
    /// saved, then each server copy it was given since (fetched, a conflict's, or what a save
    /// whose answer was lost sent), the newest last, at most `versionsKept`.
    private var versions: [RecordID: [SortedMap<String, CloudValue>]] = [:]
    private static let versionsKept = 8
    /// Per record whose save failed, what the device sent and the copy it knew then: the next
    /// save must keep the device's own edits if it takes a newer server copy (APPW-2).
    private var unanswered: [RecordID: Unanswered] = [:]
    /// Per record fetched while its save waited to be sent, the fetched copy, when it differs
    /// from the copy the device knew: an app that drops the save, or sends that copy back,
    /// loses the device's unsent edit (APPW-2).
    private var superseded: [RecordID: SortedMap<String, CloudValue>] = [:]
    /// The records of a `sentRecordZoneChanges` whose save failed while the device's own
    /// deletion of them waited: a save scheduled again replaces that deletion (APPW-9).
    private var deletionsPendingAtFailure: Set<RecordID> = []

    struct Unanswered {
        var sent: SortedMap<String, CloudValue>
        var known: SortedMap<String, CloudValue>

        /// The first field the device changed and `newest` did not, which `record` lacks.
        func ownEditDropped(
            in record: CloudRecord, keys: [String], newest: SortedMap<String, CloudValue>
        ) -> String? {
            guard newest != known else { return nil }
            return keys.first { key in
                sent[key] != known[key] && newest[key] == known[key]
                    && record.fields[key] != sent[key]
            }
        }
    }

    /// Traces for an event before the delegate handles it (APPW-4 to APPW-7), and what the
    /// traces after it need to know of the state before (APPW-9).
    func before(_ event: SimEngine.Event, engine: SimEngine) -> [EngineEffect] {
        let state = engine.state
        switch event {
        case .didFetchRecordZoneChanges(let zone, nil) where engine.fetchResetToken(of: zone):
            return [Self.trace("app.fetched-from-scratch", "APPW-7", [
                TraceField("zone", .string(zone.description)),
            ])]
        case .didFetchChanges where engine.fetchResetDatabaseToken:
            return [Self.trace("app.fetched-from-scratch", "APPW-7", [
                TraceField("database", .string(engine.database.rawValue)),
            ])]
        case .fetchedRecordZoneChanges(let changes):
            var effects: [EngineEffect] = []
            for record in changes.modifications {
                let id = RecordID(recordName: record.recordName, zoneID: record.zone)
                if state.isPending(.saveRecord(id)),
                    let known = versions[id]?.last, known != record.fields {
                    superseded[id] = record.fields
                }
                given(record.fields, for: id)
                if state.isPending(.deleteRecord(id)) {
                    effects.append(Self.trace("app.fetched-record-deletion-pending", "APPW-4",
                        [TraceField("record", .string(record.recordName))]))
                }
            }
            for deletion in changes.deletions { forget(deletion.recordID) }
            return effects
        case .fetchedDatabaseChanges(let changes):
            return changes.deletions.flatMap { Self.zoneDeleted($0, state: state) }
        case .sentRecordZoneChanges(let sent):
            deletionsPendingAtFailure = Set(sent.failedRecordSaves.map {
                RecordID(recordName: $0.record.recordName, zoneID: $0.record.zone)
            }.filter { state.isPending(.deleteRecord($0)) })
            return []
        case .accountChange(let change):
            // CKSyncEngine reset its state before telling the app: what it dropped is kept.
            let pending = state.recordZoneChangesDroppedAtReset.count
            guard pending > 0 else { return [] }
            switch change.changeType {
            case .signIn: return []
            case .signOut, .switchAccounts:
                return [Self.trace("app.changes-pending-at-reset", "APPW-5", [
                    TraceField("change", .string(change.changeType.name)),
                    TraceField("pending", .int(Int64(pending))),
                ])]
            }
        default:
            return []
        }
    }

    /// A zone's deletion as it comes down: one another device made (APPW-6), and the record
    /// changes it finds waiting (APPW-5).
    private static func zoneDeleted(_ deletion: ZoneDeletion, state: SimEngine.State)
        -> [EngineEffect] {
        let zone = TraceField("zone", .string(deletion.zone.description))
        var effects: [EngineEffect] = []
        if deletion.reason == .deleted {
            effects.append(trace("app.zone-deleted-elsewhere", "APPW-6", [zone]))
        }
        let pending = state.pendingRecordZoneChanges.filter {
            $0.recordID.zoneID.isSameZone(as: deletion.zone)
        }.count
        if pending > 0 {
            effects.append(trace("app.changes-pending-at-reset", "APPW-5", [
                zone, TraceField("pending", .int(Int64(pending))),
            ]))
        }
        return effects
    }

    /// Traces for an event once the delegate's `handleEvent` returned (APPW-1 to APPW-3,
    /// APPW-9).
    func after(_ event: SimEngine.Event, state: SimEngine.State) -> [EngineEffect] {
        switch event {
        case .sentRecordZoneChanges(let sent): return afterSending(sent, state: state)
        case .fetchedRecordZoneChanges(let changes):
            // A save the app dropped on taking the fetched copy: its edit is never sent.
            return changes.modifications.compactMap { record in
                let id = RecordID(recordName: record.recordName, zoneID: record.zone)
                guard superseded[id] != nil,
                    !state.isPending(.saveRecord(id)) else { return nil }
                superseded[id] = nil
                return Self.unsentEditDropped(id)
            }
        default: return []
        }
    }

    private func afterSending(_ sent: SimEngine.SentRecordZoneChanges, state: SimEngine.State)
        -> [EngineEffect] {
        for record in sent.savedRecords {
            let id = RecordID(recordName: record.recordName, zoneID: record.zone)
            versions[id] = [record.fields]
            superseded[id] = nil
        }
        for id in sent.deletedRecordIDs { forget(id) }
        var effects: [EngineEffect] = []
        let tracksItself = state.hasPendingUntrackedChanges
        for failure in sent.failedRecordSaves {
            let id = RecordID(recordName: failure.record.recordName, zoneID: failure.record.zone)
            if let known = versions[id]?.last {
                unanswered[id] = Unanswered(sent: failure.record.fields, known: known)
            }
            if let server = failure.error.serverRecord {
                given(server.fields, for: id)
            } else if Self.answerLost(failure.error) {
                given(failure.record.fields, for: id)
            }
            guard Self.reachesTheApp(failure.error) else { continue }
            let again = state.isPending(.saveRecord(id))
            if !again, !tracksItself {
                effects.append(Self.dropped(id, failure.error))
            } else if again, failure.error.code == .unknownItem {
                effects.append(Self.trace("app.deleted-record-saved-again", "APPW-3",
                    [TraceField("record", .string(id.recordName))]))
            }
            if again, deletionsPendingAtFailure.contains(id) {
                effects.append(Self.trace("app.deletion-replaced-by-retry", "APPW-9",
                    [TraceField("record", .string(id.recordName))]))
            }
        }
        for failure in sent.failedRecordDeletes
        where Self.reachesTheApp(failure.error) && failure.error.code != .unknownItem {
            if !state.isPending(.deleteRecord(failure.recordID)), !tracksItself {
                effects.append(Self.dropped(failure.recordID, failure.error))
            }
        }
        return effects
    }

    /// Traces for the records of a batch the delegate returned (APPW-2).
    func batch(_ batch: SimEngine.RecordZoneChangeBatch) -> [EngineEffect] {
        var effects: [EngineEffect] = []
        for save in batch.recordsToSave {
            let id = RecordID(recordName: save.record.recordName, zoneID: save.record.zone)
            let fetched = superseded.removeValue(forKey: id)
            let failed = unanswered.removeValue(forKey: id)
            // An edit sent once is judged by what that save carried; one never sent, by
            // whether anything but the fetched copy goes.
            if failed == nil, let fetched,
                save.changedKeys.allSatisfy({ save.record.fields[$0] == fetched[$0] }) {
                effects.append(Self.unsentEditDropped(id))
                continue
            }
            if let failed, let newest = versions[id]?.last,
                let dropped = failed.ownEditDropped(
                    in: save.record, keys: save.changedKeys, newest: newest) {
                effects.append(Self.trace("app.own-edit-dropped", "APPW-2", [
                    TraceField("record", .string(id.recordName)),
                    TraceField("field", .string(dropped)),
                ]))
                continue
            }
            guard let known = versions[id], let newest = known.last, known.count > 1 else {
                continue
            }
            let earlier = known.dropLast()
            // A value the device had before the newest copy, sent over that copy's.
            let older = save.changedKeys.first { key in
                let value = save.record.fields[key]
                return value != newest[key] && earlier.contains { $0[key] == value }
            }
            guard let older else { continue }
            effects.append(Self.trace("app.older-value-sent", "APPW-2", [
                TraceField("record", .string(id.recordName)), TraceField("field", .string(older)),
            ]))
        }
        return effects
    }

    /// Notes a server copy the device was given.
    private func given(_ fields: SortedMap<String, CloudValue>, for id: RecordID) {
        var known = versions[id] ?? []
        guard known.last != fields else { return }
        if known.count == Self.versionsKept { known.remove(at: 1) }
        known.append(fields)
        versions[id] = known
    }

    private func forget(_ id: RecordID) {
        versions[id] = nil
        unanswered[id] = nil
        superseded[id] = nil
    }

    /// An error CKSyncEngine reports and drops from its pending changes: neither retried by
    /// the engine itself nor held for another item of an atomic zone.
    private static func reachesTheApp(_ error: CloudError) -> Bool {
        !error.code.isTransient && error.code != .batchRequestFailed
    }

    /// A save whose answer was lost: iCloud may hold what it sent, a copy like a fetched one.
    private static func answerLost(_ error: CloudError) -> Bool {
        error.code == .networkFailure || error.code == .serverResponseLost
    }

    private static func dropped(_ id: RecordID, _ error: CloudError) -> EngineEffect {
        trace("app.failed-change-dropped", "APPW-1", [
            TraceField("record", .string(id.recordName)),
            TraceField("error", .string(error.code.description)),
        ])
    }

    private static func unsentEditDropped(_ id: RecordID) -> EngineEffect {
        trace("app.unsent-edit-dropped", "APPW-2", [TraceField("record", .string(id.recordName))])
    }

    private static func trace(_ kind: String, _ rule: String, _ details: [TraceField])
        -> EngineEffect {
        .trace(kind: kind, details: details, rules: [rule])
    }
}

extension SimEngine.AccountChange.ChangeType {
    /// The case's name, as the trace spells it.
    var name: String {
        switch self {
        case .signIn: return "signIn"
        case .signOut: return "signOut"
        case .switchAccounts: return "switchAccounts"
        }
    }
}
