/// An `entity NAME { ... }` block: one model type of the synchronized schema.
public struct EntityDeclaration: Hashable, Sendable {
    public var name: Located<String>
    /// Attributes in declaration order.
    public var attributes: [AttributeDeclaration]
    /// Relationships in declaration order; their targets name declared entities.
    public var relationships: [RelationshipDeclaration]
    /// What is synchronized; `all` unless the block says `sync ...`.
    public var sync: SyncSpecification
    /// Where the `sync` line is, or nil when the default applies.
    public var syncLocation: SourceLocation?
    /// The `identity(a, b)` attributes in the order written; empty when there is none.
    public var identity: [Located<String>]
    /// Whether a model of this entity can be the root of a share (`sharable`).
    public var isSharable: Bool
    /// Where the `entity` keyword is.
    public var location: SourceLocation

    public init(
        name: Located<String>,
        attributes: [AttributeDeclaration] = [],
        relationships: [RelationshipDeclaration] = [],
        sync: SyncSpecification = .all,
        syncLocation: SourceLocation? = nil,
        identity: [Located<String>] = [],
        isSharable: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.sync = sync
        self.syncLocation = syncLocation
        self.identity = identity
        self.isSharable = isSharable
        self.location = location
    }

    public func attribute(named name: String) -> AttributeDeclaration? {
        attributes.first { $0.name.value == name }
    }

    public func relationship(named name: String) -> RelationshipDeclaration? {
        relationships.first { $0.name.value == name }
    }

    /// The names of all properties, attributes first, each group in declaration order.
    public var propertyNames: [String] {
        attributes.map(\.name.value) + relationships.map(\.name.value)
    }

    /// Whether the entity takes part in synchronization at all (`sync none` says it does not).
    public var isSynchronized: Bool { sync != .none }

    /// Whether the property of that name is synchronized under this entity's `sync` line.
    public func isSynchronized(property name: String) -> Bool {
        sync.includes(name)
    }

    /// The relationship that makes this entity's records children of another's, if any.
    public var parentRelationship: RelationshipDeclaration? {
        relationships.first { $0.isParent }
    }
}

/// The attribute types the format knows; `rawValue` is the spelling in a file.
public enum AttributeType: String, Hashable, Sendable, CaseIterable {
    case string = "String"
    case int = "Int"
    case double = "Double"
    case bool = "Bool"
    case date = "Date"
    case uuid = "UUID"
    case url = "URL"
    case data = "Data"
}

/// `name: Type[?] [= literal] [asset]`: a stored value of a model.
public struct AttributeDeclaration: Hashable, Sendable {
    public var name: Located<String>
    public var type: AttributeType
    public var isOptional: Bool
    /// The `= literal` default, already checked to fit `type`.
    public var defaultValue: Value?
    /// Always stored as a CKAsset (BIG-1); only `Data` and `String` attributes can be.
    public var isAsset: Bool
    public var location: SourceLocation

    public init(
        name: Located<String>,
        type: AttributeType,
        isOptional: Bool = false,
        defaultValue: Value? = nil,
        isAsset: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isAsset = isAsset
        self.location = location
    }
}

/// `X?` (to-one) or `[X]` (to-many).
public enum Cardinality: String, Hashable, Sendable {
    case toOne = "to-one"
    case toMany = "to-many"
}

/// What deleting a model does to the models this relationship holds.
public enum DeleteRule: String, Hashable, Sendable, CaseIterable {
    case cascade
    case nullify
    case deny
}

/// `name: Target?` or `name: [Target]` with `inverse(x)`, a delete rule and `parent`.
public struct RelationshipDeclaration: Hashable, Sendable {
    public var name: Located<String>
    /// The target entity's name, as written (a declared entity in a valid tree).
    public var target: Located<String>
    public var cardinality: Cardinality
    /// The `inverse(x)` relationship of the target entity, if written.
    public var inverse: Located<String>?
    public var deleteRule: DeleteRule
    /// Whether this to-one relationship is the record's parent reference (sharing, cascade).
    public var isParent: Bool
    public var location: SourceLocation

    public init(
        name: Located<String>,
        target: Located<String>,
        cardinality: Cardinality,
        inverse: Located<String>? = nil,
        deleteRule: DeleteRule = .nullify,
        isParent: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.target = target
        self.cardinality = cardinality
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isParent = isParent
        self.location = location
    }
}

/// The `sync` line of an entity (CFG-1): which properties become record fields.
public enum SyncSpecification: Hashable, Sendable {
    case all
    case only([Located<String>])
    case except([Located<String>])
    case none

    /// Whether a property of that name is synchronized under this specification.
    public func includes(_ property: String) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .only(let names): return names.contains { $0.value == property }
        case .except(let names): return !names.contains { $0.value == property }
        }
    }
}
