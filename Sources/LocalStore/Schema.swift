/// The type of an attribute (SCENARIO-FORMAT.md section 2).
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

/// A value a model holds for an attribute. Absent values are not stored (nil).
public enum AttributeValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// Whole milliseconds since 1970-01-01T00:00:00Z.
    case date(millisecondsSince1970: Int64)
    /// Upper case with hyphens.
    case uuid(String)
    case url(String)
    case data([UInt8])

    public var type: AttributeType {
        switch self {
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .date: return .date
        case .uuid: return .uuid
        case .url: return .url
        case .data: return .data
        }
    }
}

public struct AttributeDescription: Hashable, Sendable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var defaultValue: AttributeValue?
    /// Always stored as a CKAsset (BIG-1).
    public var isAsset: Bool

    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = false,
        defaultValue: AttributeValue? = nil,
        isAsset: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isAsset = isAsset
    }
}

/// What deleting a model does to the models a relationship points at.
public enum DeleteRule: String, Hashable, Sendable {
    case nullify
    case cascade
    case deny
}

public struct RelationshipDescription: Hashable, Sendable {
    public var name: String
    public var destination: String
    public var isToMany: Bool
    /// The relationship of the destination entity that points back.
    public var inverse: String?
    public var deleteRule: DeleteRule
    /// This to-one relationship is the record's parent reference.
    public var isParent: Bool

    public init(
        name: String,
        destination: String,
        isToMany: Bool,
        inverse: String? = nil,
        deleteRule: DeleteRule = .nullify,
        isParent: Bool = false
    ) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isParent = isParent
    }
}

/// Which properties of an entity are synchronized (CFG-1).
public enum SyncSpecification: Hashable, Sendable {
    case all
    case only([String])
    case except([String])
    case none

    public func includes(_ property: String) -> Bool {
        switch self {
        case .all: return true
        case .only(let names): return names.contains(property)
        case .except(let names): return !names.contains(property)
        case .none: return false
        }
    }
}

public struct EntityDescription: Hashable, Sendable {
    public var name: String
    public var attributes: [AttributeDescription] { didSet { findSynchronizedProperties() } }
    public var relationships: [RelationshipDescription] { didSet { findSynchronizedProperties() } }
    public var sync: SyncSpecification { didSet { findSynchronizedProperties() } }
    /// Identity attribute names, in the order written (ID rules); empty for none.
    public var identity: [String]
    public var isSharable: Bool

    public init(
        name: String,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        sync: SyncSpecification = .all,
        identity: [String] = [],
        isSharable: Bool = false
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.sync = sync
        self.identity = identity
        self.isSharable = isSharable
        findSynchronizedProperties()
    }

    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// Whether the entity is synchronized at all (`sync none` is not).
    public var isSynchronized: Bool { sync != .none }

    /// The synchronized attributes, in declaration order.
    ///
    /// Kept, not computed on each read: engines read them for every record they upload or
    /// store, and filtering the attributes each time cost about 2% of an explorer seed
    /// (issue 19). Derived from `attributes`, `relationships` and `sync` whenever one changes.
    public private(set) var synchronizedAttributes: [AttributeDescription] = []

    /// The synchronized to-one relationships, in declaration order (to-many sides are derived).
    public private(set) var synchronizedToOneRelationships: [RelationshipDescription] = []

    private mutating func findSynchronizedProperties() {
        synchronizedAttributes = isSynchronized ? attributes.filter { sync.includes($0.name) } : []
        synchronizedToOneRelationships = isSynchronized
            ? relationships.filter { !$0.isToMany && sync.includes($0.name) } : []
    }

    /// The to-one relationship that is the record's parent reference, if any.
    public var parentRelationship: RelationshipDescription? {
        relationships.first { $0.isParent }
    }
}

/// The model schema of an app: its entities in declaration order.
public struct Schema: Hashable, Sendable {
    public var entities: [EntityDescription]

    public init(entities: [EntityDescription]) {
        self.entities = entities
    }

    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }
}
