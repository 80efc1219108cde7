/// The changes of a saved transaction, as its history entry lists them.
extension SaveDraft {
    /// One change per model, in the order the transaction first touched the models; each
    /// cascaded deletion right after the deletion that caused it; the models only nullified
    /// last (they were touched last). A model inserted and deleted is in none; one inserted
    /// and updated is only inserted; an update that changed nothing is not there.
    func changes() -> [HistoryChange] {
        var changes: [HistoryChange] = []
        // At most one change a touched model: the array is sized once and kept exactly (the
        // history keeps it for the whole run).
        changes.reserveCapacity(touched.count)
        // Most saves delete nothing: no lookups in the (empty) cascade tables then.
        let cascading = !cascades.isEmpty
        for (id, original) in touched // tidy: ordered the order first touched
        where !cascading || !cascaded.contains(id) {
            if let change = change(of: id, original: original) {
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

    private func change(of id: ModelID, original: Model?) -> HistoryChange? {
        switch (original, models[id]) {
        case (nil, nil):
            return nil
        case (nil, let after?):
            return .inserted(id, entity: after.entity)
        case (let before?, nil):
            guard let tombstone = tombstone(of: id) else {
                preconditionFailure("no tombstone of \(id)")
            }
            return .deleted(id, entity: before.entity, tombstone: tombstone)
        case (let before?, let after?):
            let keys = after.changedKeys(since: before)
            return keys.isEmpty ? nil : .updated(id, entity: after.entity, keys: keys)
        }
    }
}
