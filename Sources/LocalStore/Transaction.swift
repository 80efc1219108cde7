/// Changes grouped to be saved together, or rolled back (DEL-1).
///
/// Nothing reaches the store until `Store.save(_:author:)`; a transaction that is dropped
/// leaves no trace.
public struct Transaction: Hashable, Sendable {
    public enum Operation: Hashable, Sendable {
        /// Insert a model; properties not given take their defaults.
        case insert(ModelID, entity: String, values: [String: PropertyValue])
        case update(ModelID, values: [String: PropertyValue])
        /// Delete through the context: delete rules apply at save.
        case delete(ModelID)
    }

    public private(set) var operations: [Operation] = []

    public init() {}

    public var isEmpty: Bool { operations.isEmpty }

    /// The entity of a model this transaction inserts and does not delete again: the model a
    /// later operation of the same transaction may name before the save (`begin` … `save`).
    public func insertedEntity(of id: ModelID) -> String? {
        var entity: String?
        for operation in operations {
            switch operation {
            case .insert(let inserted, let name, _) where inserted == id: entity = name
            case .delete(let deleted) where deleted == id: entity = nil
            default: break
            }
        }
        return entity
    }

    /// Takes the operation (most callers build it in the call): moved into the list, not
    /// copied there and then released by the caller.
    public mutating func append(_ operation: consuming Operation) {
        // Room for several operations with the first, so that a transaction of a few (a
        // downloaded page's) does not grow its array from one to two to four, an allocation each.
        if operations.capacity == 0 { operations.reserveCapacity(8) }
        operations.append(operation)
    }
}
