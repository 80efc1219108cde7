extension Store {
    /// The problems of a schema that would make the store misbehave, one message each, in
    /// declaration order (empty when there is none).
    ///
    /// The scenario validator reports configuration errors to users; this is a cheap second
    /// check for schemas built in code (tests, engines).
    public static func validateSchema(_ schema: Schema) -> [String] {
        var problems: [String] = []
        var entityNames = Set<String>()
        for entity in schema.entities {
            if !entityNames.insert(entity.name).inserted {
                problems.append("entity '\(entity.name)' is declared twice")
            }
            problems += propertyProblems(of: entity, in: schema)
        }
        return problems
    }

    private static func propertyProblems(
        of entity: EntityDescription,
        in schema: Schema
    ) -> [String] {
        var problems: [String] = []
        var names = Set<String>()
        for name in entity.attributes.map(\.name) + entity.relationships.map(\.name)
        where !names.insert(name).inserted {
            problems.append("'\(entity.name).\(name)' is declared twice")
        }
        for attribute in entity.attributes {
            if let value = attribute.defaultValue, value.type != attribute.type {
                problems.append(
                    "'\(entity.name).\(attribute.name)' has a default of type "
                        + "\(value.type.rawValue), not \(attribute.type.rawValue)"
                )
            }
        }
        for relationship in entity.relationships {
            problems += relationshipProblems(of: relationship, in: entity, schema: schema)
        }
        if entity.relationships.filter(\.isParent).count > 1 {
            problems.append("'\(entity.name)' has more than one parent reference")
        }
        for name in entity.identity where entity.attribute(named: name) == nil {
            problems.append(
                "'\(entity.name)' has identity attribute '\(name)', which it does not declare"
            )
        }
        return problems
    }

    private static func relationshipProblems(
        of relationship: RelationshipDescription,
        in entity: EntityDescription,
        schema: Schema
    ) -> [String] {
        let place = "'\(entity.name).\(relationship.name)'"
        guard let destination = schema.entity(named: relationship.destination) else {
            return ["\(place) points at unknown entity '\(relationship.destination)'"]
        }
        var problems: [String] = []
        if relationship.isParent && relationship.isToMany {
            problems.append("\(place) is a parent reference but to-many")
        }
        if let name = relationship.inverse {
            if let inverse = destination.relationship(named: name) {
                if inverse.destination != entity.name {
                    problems.append(
                        "\(place) names inverse '\(destination.name).\(name)', "
                            + "which points at '\(inverse.destination)'"
                    )
                }
            } else {
                problems.append(
                    "\(place) names inverse '\(name)', which '\(destination.name)' lacks"
                )
            }
        }
        return problems
    }
}
