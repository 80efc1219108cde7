/// One change of a saved transaction, as the store's history keeps it.
public enum HistoryChange: Hashable, Sendable {
    case inserted(ModelID, entity: String)
    /// The properties whose values changed, sorted: attributes, to-one relationships and
    /// stored to-many relationships (never a to-many side derived from its to-one inverse).
    case updated(ModelID, entity: String, keys: [String])
    /// A tombstone: the deleted model's last values, so observers can still name its record.
    ///
    /// `indirect`: the tombstone (a whole `Model`) lives in a box, so that every change stays
    /// small in its entry's array (the history is kept for the whole run, and most changes
    /// are insertions and updates).
    indirect case deleted(ModelID, entity: String, tombstone: Model)
}

/// A saved transaction in the store's history, with its author (so the sync engine can
/// ignore its own writes) and a position that only grows.
public struct HistoryEntry: Hashable, Sendable {
    public var position: Int64
    public var author: String
    public var changes: [HistoryChange]

    public init(position: Int64, author: String, changes: [HistoryChange]) {
        self.position = position
        self.author = author
        self.changes = changes
    }

    /// The models the transaction deleted, in history order: those it named and those its
    /// delete rules cascaded to.
    public var deletedModels: [ModelID] {
        changes.compactMap { if case .deleted(let id, _, _) = $0 { return id } else { return nil } }
    }
}
