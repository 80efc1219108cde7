import Kernel

/// A model's identifier in one store: stable for the store's life, new when it is rebuilt.
///
/// Stores hand them out from a counter, so they are deterministic.
public struct ModelID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ModelID, rhs: ModelID) -> Bool { lhs.rawValue < rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// What `Dictionary` and `Set` file an identifier under (`TableHash`: no `Hasher`).
    public func _rawHashValue(seed: Int) -> Int { TableHash.mix(rawValue, seed: seed) }

    public var description: String { "m\(rawValue)" }
}

/// A saved model as the store holds it.
public struct Model: Hashable, Sendable {
    public var id: ModelID
    public var entity: String
    /// Attribute values; an absent key has no value.
    ///
    /// A sorted map, not a dictionary: a model holds a few values, which a sorted map holds in
    /// far fewer bytes than a `Dictionary`; its walks are in name order.
    public var values: SortedMap<String, AttributeValue>
    /// To-one relationships; an absent key points at nothing.
    public var toOne: SortedMap<String, ModelID>
    /// To-many relationships without an inverse, sorted; those with an inverse are derived
    /// from the other side (`Store.models(pointingAt:through:of:)`).
    public var toMany: SortedMap<String, [ModelID]>

    public init(
        id: ModelID,
        entity: String,
        // `SortedMap()`, not `[:]`: the literal goes through the generic building from
        // pairs, three maps for every inserted model.
        values: SortedMap<String, AttributeValue> = SortedMap(),
        toOne: SortedMap<String, ModelID> = SortedMap(),
        toMany: SortedMap<String, [ModelID]> = SortedMap()
    ) {
        self.id = id
        self.entity = entity
        self.values = values
        self.toOne = toOne
        self.toMany = toMany
    }
}

extension Model {
    /// Whether the model points at no other model.
    var hasNoRelationships: Bool { toOne.isEmpty && toMany.isEmpty }
}

/// A change to one property of a model, as a transaction writes it.
public enum PropertyValue: Hashable, Sendable {
    case attribute(AttributeValue?)
    /// A to-one relationship (nil clears it).
    case relationship(ModelID?)
    /// A to-many relationship, replacing its members (on either side of an inverse).
    case relationships([ModelID])
}
