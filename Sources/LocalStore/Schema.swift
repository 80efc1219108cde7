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

/// An entity: its attributes and relationships, which of them synchronize, its identity.
///
/// Its fields sit behind one reference, replaced whole on a change (entities are changed while a
/// schema is built, then only read): `Schema.entity(named:)` runs often, and returning an entity
/// retains one reference, not its seven arrays and strings.
public struct EntityDescription: Hashable, Sendable {
    /// The stored fields, plain values.
    private struct Fields: Hashable, Sendable {
        var name: String
        var attributes: [AttributeDescription]
        var relationships: [RelationshipDescription]
        var sync: SyncSpecification
        var identity: [String]
        var isSharable: Bool
        var synchronizedAttributes: [AttributeDescription] = []
        var synchronizedToOneRelationships: [RelationshipDescription] = []
        var defaultValues = SortedMap<String, AttributeValue>()
        var defaultsAreStorable = true
        var mayLackRequiredValue = false

        /// Derives the fields read on every save and upload from the declared ones.
        mutating func deriveFields() {
            var defaults = SortedMap<String, AttributeValue>()
            for attribute in attributes {
                guard let value = attribute.defaultValue else { continue }
                // Later wins, as the insert's walk of the attributes set them.
                defaults[attribute.name] = value
            }
            defaultValues = defaults
            defaultsAreStorable = attributes.allSatisfy { attribute in
                attribute.defaultValue.map {
                    AttributeValue.problem(storing: $0, as: attribute.type) == nil
                } ?? true
            }
            mayLackRequiredValue = attributes.contains { !$0.isOptional && $0.defaultValue == nil }
            let isSynchronized = sync != .none
            synchronizedAttributes =
                isSynchronized ? attributes.filter { sync.includes($0.name) } : []
            synchronizedToOneRelationships = isSynchronized
                ? relationships.filter { !$0.isToMany && sync.includes($0.name) } : []
        }
    }

    /// The one reference: immutable, so a read needs no exclusivity check and a copy of the
    /// entity one retain.
    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var storage: Storage

    private var fields: Fields { storage.fields }

    /// Whether the entity is called `name`, compared where the name is stored: reading `name`
    /// copied (retained and released) each entity's name on the way to the one asked for.
    func isNamed(_ name: String) -> Bool { storage.fields.name == name }

    /// Changes the fields on a copy, derives the synchronized properties again and keeps it.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var changed = storage.fields
        body(&changed)
        changed.deriveFields()
        storage = Storage(changed)
    }

    public var name: String {
        get { fields.name }
        set { change { $0.name = newValue } }
    }

    public var attributes: [AttributeDescription] {
        get { fields.attributes }
        set { change { $0.attributes = newValue } }
    }

    public var relationships: [RelationshipDescription] {
        get { fields.relationships }
        set { change { $0.relationships = newValue } }
    }

    public var sync: SyncSpecification {
        get { fields.sync }
        set { change { $0.sync = newValue } }
    }

    /// Identity attribute names, in the order written (ID rules); empty for none.
    public var identity: [String] {
        get { fields.identity }
        set { change { $0.identity = newValue } }
    }

    public var isSharable: Bool {
        get { fields.isSharable }
        set { change { $0.isSharable = newValue } }
    }

    public init(
        name: String,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        sync: SyncSpecification = .all,
        identity: [String] = [],
        isSharable: Bool = false
    ) {
        var fields = Fields(
            name: name, attributes: attributes, relationships: relationships, sync: sync,
            identity: identity, isSharable: isSharable)
        fields.deriveFields()
        storage = Storage(fields)
    }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.storage === rhs.storage || lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    // Found by position, then the one found copied out: `first(where:)` would copy out each
    // description it compared (its name and default value retained and released), on every
    // value a save writes.
    public func attribute(named name: String) -> AttributeDescription? {
        let attributes = storage.fields.attributes
        guard let index = attributes.firstIndex(where: { $0.name == name }) else { return nil }
        return attributes[index]
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        let relationships = storage.fields.relationships
        guard let index = relationships.firstIndex(where: { $0.name == name }) else {
            return nil
        }
        return relationships[index]
    }

    /// Whether the entity has an attribute or a relationship of that name, found without
    /// copying its description out (a transaction's names are all checked before it writes).
    func hasProperty(named name: String) -> Bool {
        fields.attributes.contains { $0.name == name }
            || fields.relationships.contains { $0.name == name }
    }

    /// The attributes' default values by name: what an inserted model starts with, taken
    /// whole instead of set one by one.
    var defaultValues: SortedMap<String, AttributeValue> { fields.defaultValues }

    /// Whether every default value is one the store can hold (a schema can declare one that
    /// is not: each insert then refuses it).
    var defaultsAreStorable: Bool { fields.defaultsAreStorable }

    /// Whether a model of the entity can lack a value it must have: only a non-optional
    /// attribute without a default can (a default is stored whenever one is cleared or left
    /// out).
    var mayLackRequiredValue: Bool { fields.mayLackRequiredValue }

    /// Whether the entity is synchronized at all (`sync none` is not).
    public var isSynchronized: Bool { fields.sync != .none }

    /// The synchronized attributes, in declaration order.
    ///
    /// Kept, not computed on each read: engines read them for every record they upload or
    /// store, and filtering the attributes each time would be paid on every one. Derived
    /// from `attributes`, `relationships` and `sync` whenever one changes.
    public var synchronizedAttributes: [AttributeDescription] { fields.synchronizedAttributes }

    /// The synchronized to-one relationships, in declaration order (to-many sides are derived).
    public var synchronizedToOneRelationships: [RelationshipDescription] {
        fields.synchronizedToOneRelationships
    }

    /// The to-one relationship that is the record's parent reference, if any.
    public var parentRelationship: RelationshipDescription? {
        fields.relationships.first { $0.isParent }
    }
}

/// The model schema of an app: its entities in declaration order.
public struct Schema: Hashable, Sendable {
    public var entities: [EntityDescription]

    public init(entities: [EntityDescription]) {
        self.entities = entities
    }

    /// Found by position, then copied out (see `EntityDescription.attribute(named:)`).
    public func entity(named name: String) -> EntityDescription? {
        guard let index = entities.firstIndex(where: { $0.isNamed(name) }) else { return nil }
        return entities[index]
    }
}
