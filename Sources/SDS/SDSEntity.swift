import LocalStore

/// What the `sds` engine asks of an entity, worked out once when the engine starts.
///
/// The engine looks an entity up by its name for almost every record it stores, uploads or records
/// (the record's type, the model's entity). `Schema.entity(named:)` returns a copy of the
/// `EntityDescription`, whose arrays a copy retains and a destroy releases, and the engine would
/// then filter its relationships for the parent one, five or six lookups a record. An engine keeps
/// one object per entity (`SDSEntities`), read in place; its properties read as
/// `EntityDescription`'s.
final class SDSEntity: Sendable {
    let entityDescription: EntityDescription
    let name: String
    /// Whether the entity is synchronized at all (`sync none` is not).
    let isSynchronized: Bool
    let synchronizedAttributes: [AttributeDescription]
    let synchronizedToOneRelationships: [RelationshipDescription]
    /// The to-one relationship that is the record's parent reference, if any.
    let parentRelationship: RelationshipDescription?
    /// Identity attribute names, in the order written (ID rules); empty for none.
    let identity: [String]
    /// The synchronized property names: attributes, then to-one relationships.
    let synchronizedKeys: [String]
    /// Each synchronized key's offset in `synchronizedKeys` (the last, for a name listed
    /// twice): a new model's pending versions are this map's values moved up (`mapValues`
    /// keeps the buckets, so no key is hashed again per inserted model).
    let synchronizedKeyOffsets: [String: Int64]

    init(_ description: EntityDescription) {
        entityDescription = description
        name = description.name
        isSynchronized = description.isSynchronized
        synchronizedAttributes = description.synchronizedAttributes
        synchronizedToOneRelationships = description.synchronizedToOneRelationships
        parentRelationship = description.parentRelationship
        identity = description.identity
        synchronizedKeys = RecordMapping.synchronizedKeys(of: description)
        synchronizedKeyOffsets = Dictionary(
            zip(synchronizedKeys, 0 ..< Int64(synchronizedKeys.count)),
            uniquingKeysWith: { _, later in later })
    }

    func attribute(named name: String) -> AttributeDescription? {
        entityDescription.attribute(named: name)
    }
}

/// The entities of a schema as `SDSEntity` objects, found by name without copying.
struct SDSEntities: Sendable {
    let all: [SDSEntity]
    /// Some entity has an identity (ID rules), decided once (asked at every upload request).
    let anyHasIdentity: Bool

    init(_ schema: Schema) {
        all = schema.entities.map(SDSEntity.init)
        anyHasIdentity = all.contains { !$0.identity.isEmpty }
    }

    /// The entity of that name (`Schema.entity(named:)`: the first of the name).
    func named(_ name: String) -> SDSEntity? {
        // A handful of entities whose short names compare as two words: no hashing.
        for entity in all where entity.name == name { return entity }
        return nil
    }
}
