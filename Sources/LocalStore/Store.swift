/// A SwiftData-like store: the models of declared entities, saved in transactions, with a
/// history of those transactions (author, changes, tombstones).
///
/// A value type: the device keeps it on its disk, so it survives a kill.
public struct Store: Hashable, Sendable {
    public let schema: Schema

    public init(schema: Schema) {
        self.schema = schema
        preconditionFailure("not implemented yet")
    }

    /// Reserves the identifier of a model about to be inserted.
    public mutating func makeModelID() -> ModelID {
        preconditionFailure("not implemented yet")
    }

    /// Applies a transaction atomically: validates every value, applies delete rules
    /// (cascade, nullify, deny), keeps inverse relationships in step, and appends one history
    /// entry (returned; nil when the transaction changed nothing).
    public mutating func save(_ transaction: Transaction, author: String) throws(StoreError) -> HistoryEntry? {
        preconditionFailure("not implemented yet")
    }

    /// Deletes matching models directly (DEL-2): no delete rules, no history. Returns the
    /// deleted identifiers, sorted.
    public mutating func batchDelete(entity: String, where filter: [String: AttributeValue]) -> [ModelID] {
        preconditionFailure("not implemented yet")
    }

    /// Empties the store as if its file vanished (HDO-3); identifiers are never reused.
    public mutating func lose() {
        preconditionFailure("not implemented yet")
    }

    /// Rebuilds the store with the same data and new identifiers (DEL-3, HDO-3), history
    /// emptied. Returns the old → new identifier pairs, sorted by the old identifier.
    public mutating func rebuild() -> [(old: ModelID, new: ModelID)] {
        preconditionFailure("not implemented yet")
    }

    public func model(_ id: ModelID) -> Model? {
        preconditionFailure("not implemented yet")
    }

    /// Every model, sorted by identifier.
    public var models: [Model] {
        preconditionFailure("not implemented yet")
    }

    /// The models of one entity, sorted by identifier.
    public func models(of entity: String) -> [Model] {
        preconditionFailure("not implemented yet")
    }

    /// The models whose to-one relationship `relationship` points at `target` (the to-many
    /// side), sorted.
    public func models(pointingAt target: ModelID, through relationship: String, of entity: String) -> [ModelID] {
        preconditionFailure("not implemented yet")
    }

    /// History entries after a position, oldest first.
    public func history(after position: Int64) -> [HistoryEntry] {
        preconditionFailure("not implemented yet")
    }

    /// The position of the newest history entry (0 when there is none).
    public var lastHistoryPosition: Int64 {
        preconditionFailure("not implemented yet")
    }
}
