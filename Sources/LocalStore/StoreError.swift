/// Why the store refused to save a transaction (the whole transaction is then not applied).
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownEntity(String)
    case unknownModel(ModelID)
    case unknownProperty(entity: String, property: String)
    /// A value of the wrong type, or nil for a property that is not optional (DL-4).
    case invalidValue(entity: String, property: String, reason: String)
    /// A `deny` delete rule kept a model from being deleted.
    case deleteDenied(ModelID, relationship: String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): return "unknown entity '\(name)'"
        case .unknownModel(let id): return "no model \(id)"
        case .unknownProperty(let entity, let property):
            return "entity '\(entity)' has no property '\(property)'"
        case .invalidValue(let entity, let property, let reason):
            return "invalid value for '\(entity).\(property)': \(reason)"
        case .deleteDenied(let id, let relationship):
            return "\(id) cannot be deleted: relationship '\(relationship)' denies it"
        }
    }
}
