import LocalStore

/// What a transaction the app rolled back (`begin` … `rollback`) would have changed.
///
/// Nothing of it reached the store: no model, no history entry, no save. The device hands it
/// to the running engine (`SyncEngine.rolledBack(_:context:)`) so that an engine whose
/// catalogue has a rule about rollbacks can trace that rule; an engine that does not care
/// ignores it (the default returns no effects).
public struct DiscardedTransaction: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case insert
        case update
        case delete
    }

    /// One operation of the transaction.
    public struct Change: Hashable, Sendable {
        public var model: ModelID
        public var entity: String
        public var kind: Kind
        /// The properties the operation set, sorted by name (empty for a deletion).
        public var keys: [String]

        public init(model: ModelID, entity: String, kind: Kind, keys: [String]) {
            self.model = model
            self.entity = entity
            self.kind = kind
            self.keys = keys
        }
    }

    /// The operations in the order the app made them.
    public var changes: [Change]

    public init(changes: [Change]) {
        self.changes = changes
    }

    /// The changes of `transaction`, each with its model's entity: from the transaction's own
    /// insert, else from `store` (as it was before the transaction). An operation on a model
    /// neither knows is left out: it could have changed nothing.
    public init(_ transaction: Transaction, in store: Store) {
        var inserted: [ModelID: String] = [:]
        var changes: [Change] = []
        for operation in transaction.operations {
            switch operation {
            case .insert(let id, let entity, let values):
                inserted[id] = entity
                changes.append(Change(model: id, entity: entity, kind: .insert,
                    keys: values.keys.sorted()))
            case .update(let id, let values):
                guard let entity = inserted[id] ?? store.model(id)?.entity else { continue }
                changes.append(Change(model: id, entity: entity, kind: .update,
                    keys: values.keys.sorted()))
            case .delete(let id):
                guard let entity = inserted[id] ?? store.model(id)?.entity else { continue }
                changes.append(Change(model: id, entity: entity, kind: .delete, keys: []))
            }
        }
        self.changes = changes
    }
}
