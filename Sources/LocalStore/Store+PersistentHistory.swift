/// The store's persistent history: every save and every batch delete, in the order they
/// happened, with authors and tombstones; the channel an engine that reads history after a
/// token uses (the `history` and `mirror` engines).
///
/// The save notifications (`history(after:)`) are a different channel: they keep leaving
/// batch deletes out (DEL-2), so what `sds` observes does not change.
extension Store {
    /// The author of batch deletes in the persistent history (the app ran them, but no
    /// context saved them).
    public static let batchDeleteAuthor = "batch-delete"

    /// The transactions after a token (every one for nil), oldest first: save entries and
    /// batch deletes in the order they happened.
    public func persistentHistory(after token: HistoryToken?) -> [PersistentTransaction] {
        let after = token ?? .start
        var result: [PersistentTransaction] = []
        var saves = history(after: after.position - 1)[...]
        var batches = batchDeletions.filter { $0.token > after }[...]
        while true {
            let save = saves.first.map { HistoryToken(position: $0.position) }
            let batch = batches.first?.token
            switch (save, batch) {
            case (nil, nil):
                return result
            case (let save?, let batch) where batch.map({ save < $0 }) ?? true:
                let entry = saves.removeFirst()
                if save > after {
                    result.append(PersistentTransaction(
                        token: save, author: entry.author, changes: entry.changes,
                        isBatchDelete: false))
                }
            default:
                let entry = batches.removeFirst()
                result.append(PersistentTransaction(
                    token: entry.token, author: Self.batchDeleteAuthor, changes: entry.changes,
                    isBatchDelete: true))
            }
        }
    }

    /// The token of the newest transaction ever recorded (`.start` when none was).
    public var newestHistoryToken: HistoryToken {
        let save = HistoryToken(position: newestHistoryPosition)
        guard let batch = newestBatchToken else { return save }
        return max(save, batch)
    }

    /// Deletes the persistent history at or before a token (`deleteHistory(before:)`), batch
    /// deletes included.
    public mutating func deletePersistentHistory(through token: HistoryToken) {
        deleteHistory(through: token.position)
        batchDeletions.removeAll { $0.token <= token }
    }

    /// Records a batch delete in the persistent history, with a tombstone of each model,
    /// before the models go.
    mutating func recordBatchDeletion(of doomed: [ModelID]) {
        var changes: [HistoryChange] = []
        for id in doomed {
            guard let model = storage[id] else { continue }
            changes.append(.deleted(id, entity: model.entity, tombstone: model))
        }
        guard !changes.isEmpty else { return }
        let previous = newestBatchToken?.batch ?? 0
        let token = HistoryToken(position: newestHistoryPosition, batch: previous + 1)
        batchDeletions.append(BatchDeletionEntry(token: token, changes: changes))
        newestBatchToken = token
    }
}
