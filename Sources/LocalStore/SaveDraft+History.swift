/// The changes of a saved transaction, as its history entry lists them.
extension SaveDraft {
    /// One change per model, in the order the transaction first touched the models; each
    /// cascaded deletion right after the deletion that caused it; the models only nullified
    /// last (they were touched last). A model inserted and deleted is in none; one inserted
    /// and updated is only inserted; an update that changed nothing is not there. Takes the
    /// originals of the models listed in `touched` (the list is emptied next).
    mutating func changes() -> [HistoryChange] {
        // One model touched, no cascade (most saves): its change alone, in a list made as a
        // literal (allocated in specialized code; room reserved went through the generic
        // growth path).
        if touched.count == 1 && cascades.isEmpty {
            guard let change = change(of: touched[0].id, original: takeOriginal(at: 0)) else {
                return []
            }
            return [change]
        }
        var changes: [HistoryChange] = []
        // At most one change a touched model: the array is sized once and kept exactly (the
        // history keeps it for the whole run).
        changes.reserveCapacity(touched.count)
        // Most saves delete nothing: no lookups in the (empty) cascade tables then.
        let cascading = !cascades.isEmpty
        // By position: each element's model read where it is (binding the pair copied it).
        for position in touched.indices {
            let id = touched[position].id
            guard !cascading || !cascaded.contains(id) else { continue }
            if let change = change(of: id, original: takeOriginal(at: position)) {
                changes.append(change)
            }
            guard cascading else { continue }
            for member in cascades[id] ?? [] {
                if let change = change(of: member, original: self.original(of: member)) {
                    changes.append(change)
                }
            }
        }
        // Kept exactly: a save that touched many models and changed few leaves no slack.
        if changes.capacity - changes.count > max(16, changes.count / 8) {
            var exact: [HistoryChange] = []
            exact.reserveCapacity(changes.count)
            exact.append(contentsOf: changes)
            return exact
        }
        return changes
    }

    /// The model after the transaction is read in the draft's table, not copied out of it
    /// (a pair of copies would retain and release three maps per touched model).
    private mutating func change(of id: ModelID, original: Model?) -> HistoryChange? {
        guard let before = original else {
            return models.entity(of: id).map { .inserted(id, entity: $0) }
        }
        guard let keys = changedKeys(of: id, since: before) else {
            guard let tombstone = tombstone(of: id) else {
                preconditionFailure("no tombstone of \(id)")
            }
            return .deleted(id, entity: before.entity, tombstone: tombstone)
        }
        guard !keys.isEmpty, let entity = models.entity(of: id) else { return nil }
        return .updated(id, entity: entity, keys: keys)
    }
}
