import Kernel

/// Record changes in the public database: CloudKit's default security roles, World read,
/// Authenticated create, Creator write ([CKDatabase.Scope] `public`: "world readable, owner
/// writable"). An item naming a custom zone fails `zoneNotFound`; one changing or deleting a
/// record another account created fails `permissionFailure` (`access.refused`,
/// `not-creator`); the rest go through the private database's `modifyRecords`, so conflicts,
/// limits and notes are as there.
extension CloudService {
    func modifyPublicRecords(
        _ request: ModifyRecordsRequest, client: CloudClient, account: String, now: SimTime
    ) -> CloudOutcome {
        var refused: [Int: CloudError] = [:]
        var notes: [CloudNote] = []
        let names = request.saves.map(\.record.recordName) + request.deletes
        for (index, name) in names.enumerated() {
            let zone = index < request.saves.count
                ? request.saves[index].record.zone : request.zone
            if !zone.isDefaultZone {
                refused[index] = Self.publicZoneMissing(zone)
            } else if let creator = publicDatabase.creators[name], creator != account {
                let refusal = AccessRefusal(
                    CloudMessages.notCreator(name), reason: .notCreator, client: client,
                    zone: .publicZone, recordName: name)
                refused[index] = refusal.error
                notes.append(refusal.note)
            }
        }
        var part = request
        part.zone = .publicZone
        part.saves = request.saves.indices.filter { refused[$0] == nil }.map { index in
            var save = request.saves[index]
            save.record.zone = .publicZone
            return save
        }
        part.deletes = request.deletes.indices.filter {
            refused[request.saves.count + $0] == nil
        }.map { request.deletes[$0] }
        guard part.itemCount > 0 else {
            let results = names.indices.map { ItemResult.failed(recordName: names[$0],
                refused[$0] ?? CloudMessages.unknownItem) }
            return CloudOutcome(response: .recordsModified(results), notes: notes)
        }
        let before = publicDatabase.hasSubscriptions ? liveZoneState(.publicZone) : nil
        var outcome = modifyRecords(part, client: client, account: account, now: now)
        guard case .recordsModified(let applied) = outcome.response else { return outcome }
        noteCreators(applied, account: account)
        var answered = applied.makeIterator()
        let results = names.indices.map { index in
            refused[index].map { ItemResult.failed(recordName: names[index], $0) }
                ?? answered.next()!
        }
        outcome.response = .recordsModified(results)
        outcome.notes = notes + outcome.notes
        if let before, let after = liveZoneState(.publicZone) {
            let pushes = publicQueryPushes(before: before, after: after, device: client.device)
            outcome.pushes = AccountState.merged(outcome.pushes, pushes.targets)
            outcome.notes += pushes.notes
        }
        return outcome
    }

    /// Keeps the creator of each record the request created, and forgets deleted ones (also
    /// those a deletion cascaded to).
    private func noteCreators(_ results: [ItemResult], account: String) {
        var deleted = false
        for result in results {
            switch result {
            case .saved(let record):
                if publicDatabase.creators[record.recordName] == nil {
                    publicDatabase.creators[record.recordName] = account
                }
            case .deleted(let name):
                publicDatabase.creators[name] = nil
                deleted = true
            case .failed:
                break
            }
        }
        guard deleted else { return }
        publicDatabase.creators = publicDatabase.creators.filter { // tidy: ordered (a lookup)
            record(named: $0.key, in: .publicZone) != nil
        }
    }
}
