/// A point in the store's persistent history, as a reader keeps it between reads (Core Data's
/// `NSPersistentHistoryToken`): the transactions after it are the ones the reader has not
/// consumed yet.
///
/// Saves and batch deletes share one order. A save's token is its history position with
/// `batch` 0; a batch delete comes after the save entry `position` (the newest saved when it
/// ran) and before the next one, numbered by `batch` (1, 2, … over the store's life).
public struct HistoryToken: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var position: Int64
    public var batch: Int64

    public init(position: Int64, batch: Int64 = 0) {
        self.position = position
        self.batch = batch
    }

    /// Before every transaction.
    public static let start = HistoryToken(position: 0)

    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool {
        (lhs.position, lhs.batch) < (rhs.position, rhs.batch)
    }

    public var description: String { batch == 0 ? "\(position)" : "\(position).b\(batch)" }
}

/// One transaction of the persistent history: a save (its history entry) or a batch delete,
/// with the tombstones of the models it deleted.
public struct PersistentTransaction: Hashable, Sendable {
    public var token: HistoryToken
    public var author: String
    public var changes: [HistoryChange]
    /// True for a batch delete (`delete(model:where:)`), which the save notifications leave
    /// out (DEL-2) but the persistent history keeps.
    public var isBatchDelete: Bool

    public init(token: HistoryToken, author: String, changes: [HistoryChange],
        isBatchDelete: Bool) {
        self.token = token
        self.author = author
        self.changes = changes
        self.isBatchDelete = isBatchDelete
    }
}

/// A batch delete as the persistent history keeps it.
struct BatchDeletionEntry: Hashable, Sendable {
    var token: HistoryToken
    /// One `.deleted` change per model, with its tombstone, by identifier.
    var changes: [HistoryChange]
}
