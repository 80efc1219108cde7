import LocalStore

/// What the save ledger asks of the schema about every saved change, by entity name: each
/// entity's synchronized attribute names and identity.
///
/// Found by comparing a few names, not by `Schema.entity(named:)` (which copies the whole
/// entity description, seven references retained and released) nor by hashing the name.
struct EntityFacts {
    private let names: [String]
    private let synchronized: [[String]]
    private let identities: [[String]]

    init(_ schema: Schema) {
        names = schema.entities.map(\.name)
        synchronized = schema.entities.map { $0.synchronizedAttributes.map(\.name) }
        identities = schema.entities.map(\.identity)
    }

    /// The entity's position, the first of that name as `Schema.entity(named:)` finds it;
    /// nil for an entity the schema lacks.
    func position(of entity: String) -> Int? {
        names.firstIndex(of: entity)
    }

    /// `synchronizedAttributes` of the entity, by name, in the schema's order.
    func synchronizedNames(at position: Int) -> [String] {
        synchronized[position]
    }

    func identity(at position: Int) -> [String] {
        identities[position]
    }

    /// `Entity|v1|v2…` for a model with every identity value, else nil.
    func identityKey(_ model: Model, at position: Int) -> String? {
        let identity = identities[position]
        guard !identity.isEmpty else { return nil }
        var key = names[position]
        for name in identity {
            guard let value = model.values[name] else { return nil }
            key += "|" + ValueDescription.describe(value)
        }
        return key
    }
}
