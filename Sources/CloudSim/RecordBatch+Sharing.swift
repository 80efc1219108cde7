/// The sharing context of one `modifyRecords` request ([CKShare]; docs/CLOUDSIM.md *Sharing*): the
/// shares before the request, what the writing participant may see and write, and the share records
/// the request creates or stops.
struct BatchSharing {
    /// The writing participant; nil when the owner writes into its private database.
    let participant: String?
    let before: ShareStructure
    /// Shares the participant accepted (it sees their records).
    let readable: Set<String>
    /// Shares the participant accepted read-write.
    let writable: Set<String>
    /// Share records the request saves that the server does not hold yet.
    let newShares: Set<String>
    /// Share records the owner deletes (stops) in this request.
    let stoppedShares: Set<String>
    /// New hierarchy share → index of the first save naming it in `share`: its root.
    let claimants: [String: Int]
    /// Indexes of deletes that are a participant leaving (deleting the share record).
    var leaves: Set<Int> = []

    /// Nil when the zone has no share, the owner writes and no save mentions a share: the
    /// request then runs exactly as before sharing existed.
    static func make(
        request: ModifyRecordsRequest, zone: ZoneState, participant: String?
    ) -> BatchSharing? {
        let touchesShares = request.saves.contains { $0.record.isShare || $0.record.share != nil }
        guard zone.hasShares || participant != nil || touchesShares else { return nil }
        let before = ShareStructure(zone: zone)
        var readable: Set<String> = []
        var writable: Set<String> = []
        if let participant {
            for share in before.acceptedShares(of: participant) {
                readable.insert(share)
                if before.participant(participant, in: share)?.permission == .readWrite {
                    writable.insert(share)
                }
            }
        }
        var newShares: Set<String> = []
        for save in request.saves where save.record.isShare {
            if !zone.records.contains(save.record.recordName) {
                newShares.insert(save.record.recordName)
            }
        }
        var claimants: [String: Int] = [:]
        for (index, save) in request.saves.enumerated() where !save.record.isShare {
            guard let share = save.record.share, newShares.contains(share),
                share != CloudRecord.zoneShareRecordName, claimants[share] == nil
            else { continue }
            claimants[share] = index
        }
        let savedNames = Set(request.saves.map(\.record.recordName))
        var stoppedShares: Set<String> = []
        if participant == nil {
            for name in request.deletes where before.shares[name] != nil {
                if !savedNames.contains(name) { stoppedShares.insert(name) }
            }
        }
        return BatchSharing(
            participant: participant, before: before, readable: readable, writable: writable,
            newShares: newShares, stoppedShares: stoppedShares, claimants: claimants)
    }
}

extension RecordBatch {
    /// A participant's save judged before anything else: share records are the owner's (and
    /// an existing one its accepted administrators'), and an existing record must be in a
    /// share it accepted read-write. A new record is judged by where it ends up (`settle`).
    /// Nil for the owner's saves.
    mutating func saveAccessError(_ save: RecordSave) -> CloudError? {
        guard let sharing, let participant = sharing.participant else { return nil }
        let name = save.record.recordName
        let existing = zone.records[name]?.record
        if save.record.isShare || existing?.isShare == true {
            let entry = sharing.before.participant(participant, in: name)
            let administers = existing?.isShare == true && entry?.role == .administrator
                && entry?.acceptanceStatus == .accepted
            guard administers else {
                return refuse(CloudMessages.shareOwnerOnly(name), .shareOwnerOnly, name)
            }
        }
        guard existing != nil else { return nil }
        guard let share = sharing.before.covering(name), sharing.readable.contains(share) else {
            return refuse(CloudMessages.outsideShare(name), .outsideShare, name)
        }
        guard sharing.writable.contains(share) else {
            return refuse(CloudMessages.readOnlyShare(name), .readOnly, name)
        }
        return nil
    }

    /// A participant's delete: of a record it can write and that is not a root; deleting the
    /// share record is leaving (allowed read-only too). Deleting a record that does not exist
    /// succeeds, as in the private database. Called for a participant's deletes only, as
    /// `saveAccessError` is for its saves.
    mutating func deleteAccessError(_ name: String, index: Int) -> CloudError? {
        guard let current = sharing, current.participant != nil,
            let record = zone.records[name]?.record
        else { return nil }
        guard let share = current.before.covering(name), current.readable.contains(share) else {
            return refuse(CloudMessages.outsideShare(name), .outsideShare, name)
        }
        if record.isShare {
            sharing?.leaves.insert(index)
            return nil
        }
        guard current.writable.contains(share) else {
            return refuse(CloudMessages.readOnlyShare(name), .readOnly, name)
        }
        if current.before.shareOfRoot[name] != nil {
            return refuse(CloudMessages.rootDelete(name), .rootDelete, name)
        }
        return nil
    }

    /// The record's `share` after the save: the server's (a system field), cleared when the
    /// request stops that share, or the new share the record is the claimed root of.
    func pairing(of save: RecordSave, server: CloudRecord?, index: Int) -> CheckResult<String?>
    {
        var kept = server?.share
        guard let sharing else { return .success(kept) }
        if let share = kept, sharing.stoppedShares.contains(share) { kept = nil }
        guard let wanted = save.record.share, sharing.claimants[wanted] == index else {
            return .success(kept)
        }
        if let kept {
            return .failure(CloudMessages.rootAlreadyShared(save.record.recordName, share: kept))
        }
        return .success(wanted)
    }

    /// Settles the checks that depend on the whole request, repeated until stable since a
    /// failed save changes where others end up: parent references (a parent must exist after
    /// the request), share references and structure (`alreadyShared` and the zone-share
    /// conflicts), and for a participant, that every saved record ends up in a share it
    /// accepted read-write.
    /// Returns how many writes it failed. `plannedParent`: whether a planned write's record
    /// has a parent (`RecordBatch.PlannedWrites`).
    mutating func settle(
        _ verdicts: inout [SaveVerdict], deleteErrors: [CloudError?], plannedParent: Bool
    ) -> Int {
        // Without sharing only a parent reference can fail here: no save with a parent, no
        // round, and no map of the saves built for nothing. (Told by the plans: matching
        // each verdict here copied it.)
        if sharing == nil, !plannedParent { return 0 }
        var failedWrites = 0
        var removed: Set<String> = []
        for (index, name) in request.deletes.enumerated() where deleteErrors[index] == nil {
            if sharing?.leaves.contains(index) != true { removed.insert(name) }
        }
        var changed = true
        var rounds = 0
        while changed {
            precondition(rounds <= verdicts.count, "the request checks do not settle")
            rounds += 1
            changed = false
            var planned: [String: CloudRecord] = [:]
            for plan in verdicts.compactMap(\.plan) {
                planned[plan.record.recordName] = plan.record
            }
            let after = AfterRequest(zone: zone, removed: removed, planned: planned)
            let structure = sharing.map { _ in ShareStructure(records: after.allRecords()) }
            for index in verdicts.indices {
                guard let plan = verdicts[index].plan else { continue }
                let error = settledError(
                    plan, after: after, structure: structure, verdicts: verdicts)
                guard let error else { continue }
                verdicts[index] = .fail(error)
                failedWrites += 1
                changed = true
            }
        }
        return failedWrites
    }

    private mutating func settledError(
        _ plan: PlannedSave, after: AfterRequest, structure: ShareStructure?,
        verdicts: [SaveVerdict]
    ) -> CloudError? {
        let record = plan.record
        let name = record.recordName
        if let parent = record.parent, !after.contains(parent) {
            return CloudMessages.referenceViolation(name, parent: parent)
        }
        guard let structure, let sharing else { return nil }
        if record.isShare {
            return shareSaveError(plan, structure: structure, verdicts: verdicts)
        }
        if let error = structureError(plan, structure: structure) { return error }
        guard sharing.participant != nil else { return nil }
        guard let share = structure.covering(name), sharing.readable.contains(share) else {
            return refuse(CloudMessages.outsideShare(name), .outsideShare, name)
        }
        guard sharing.writable.contains(share) else {
            return refuse(CloudMessages.readOnlyShare(name), .readOnly, name)
        }
        return nil
    }

    /// A new hierarchy share needs its root saved in the request (when the root's save
    /// failed, the share fails with the root's error); a new zone-wide share needs a zone
    /// without hierarchy shares.
    private func shareSaveError(
        _ plan: PlannedSave, structure: ShareStructure, verdicts: [SaveVerdict]
    ) -> CloudError? {
        let name = plan.record.recordName
        guard plan.previous == nil else { return nil }
        if name == CloudRecord.zoneShareRecordName {
            return structure.shareOfRoot.isEmpty
                ? nil : CloudMessages.zoneHasHierarchyShares(request.zone)
        }
        if structure.rootOfShare[name] != nil { return nil }
        if let claimant = sharing?.claimants[name], let error = verdicts[claimant].error {
            return error
        }
        return CloudMessages.shareWithoutRoot(name)
    }

    /// One share per record: a new root must not be below another root or above one, and a
    /// record moved below a root must not hold a root itself ([CKError] `alreadyShared`).
    private func structureError(_ plan: PlannedSave, structure: ShareStructure) -> CloudError? {
        let record = plan.record
        let name = record.recordName
        let isNewRoot = record.share != nil && record.share != plan.previous?.share
        if let share = record.share, isNewRoot, structure.shares[share] == nil {
            return CloudMessages.shareReferenceMissing(name, share: share)
        }
        if isNewRoot {
            if structure.zoneShare != nil { return CloudMessages.zoneSharedWhole(request.zone) }
            if let above = structure.shareAbove(name) {
                return CloudMessages.belowSharedParent(name, share: above)
            }
            if structure.hasRoot(below: name, includingSelf: false) {
                return CloudMessages.aboveSharedChild(name)
            }
            return nil
        }
        let moved = plan.previous == nil || plan.previous?.parent != record.parent
        guard moved, let above = structure.shareAbove(name),
            structure.hasRoot(below: name, includingSelf: true)
        else { return nil }
        return structure.shareOfRoot[name] != nil
            ? CloudMessages.belowSharedParent(name, share: above)
            : CloudMessages.aboveSharedChild(name)
    }

    /// Records the refusal in the notes and returns its error.
    mutating func refuse(
        _ error: CloudError, _ reason: RefusalReason, _ recordName: String
    ) -> CloudError {
        notes.append(
            CloudNotes.accessRefused(
                client: client, zone: request.zone, reason: reason, recordName: recordName))
        return error
    }
}

/// The zone's records as a request would leave them: the live ones, minus its deletes, with
/// its successful saves over them. Lookups are cheap; the whole set is built only for shares.
struct AfterRequest {
    let zone: ZoneState
    let removed: Set<String>
    let planned: [String: CloudRecord]

    func contains(_ name: String) -> Bool {
        planned[name] != nil || (zone.records.contains(name) && !removed.contains(name))
    }

    func allRecords() -> [String: CloudRecord] {
        var records = zone.records.recordsByName()
        for name in removed.sorted() { records[name] = nil }
        for name in planned.keys.sorted() { records[name] = planned[name] }
        return records
    }
}
