/// Entity checks: duplicates, defaults, sync lists, identities, inverses and the
/// configuration rules CFG-2 and ID-6 of RULES.md.
extension Validator {
    mutating func checkSchema() {
        reportDuplicates(scenario.entities.map(\.name), kind: "entity")
        for entity in scenario.entities {
            if AttributeType(rawValue: entity.name.value) != nil {
                report(.reservedName(entity.name.value, role: "an entity name"),
                    at: entity.name.location)
            }
            let properties = (entity.attributes.map(\.name) + entity.relationships.map(\.name))
                .sorted { $0.location < $1.location }
            reportDuplicates(properties, kind: "property")
            checkDefaults(entity)
            checkSyncList(entity)
            checkIdentity(entity)
            checkUnsynchronizedProperties(entity)
            checkRelationships(entity)
        }
    }

    private mutating func checkDefaults(_ entity: EntityDeclaration) {
        for attribute in entity.attributes {
            guard let value = attribute.defaultValue else { continue }
            checkAttributeValue(value, attribute: attribute, nilAllowed: attribute.isOptional)
        }
    }

    private mutating func checkSyncList(_ entity: EntityDeclaration) {
        let names: [Located<String>]
        switch entity.sync {
        case .only(let list), .except(let list): names = list
        case .all, .none: return
        }
        reportDuplicates(names, kind: "sync list entry")
        for name in names where !entity.propertyNames.contains(name.value) {
            reportUnknownProperty(name, of: entity)
        }
    }

    mutating func reportUnknownProperty(_ name: Located<String>, of entity: EntityDeclaration) {
        // A property whose type was already reported exists; its uses are not errors too.
        if scenario.unresolvedProperties.contains("\(entity.name.value).\(name.value)") { return }
        let suggestions = Suggestions.closest(to: name.value, among: entity.propertyNames)
        report(.unknownProperty(name.value, entity: entity.name.value, suggestions: suggestions,
            properties: entity.propertyNames), at: name.location)
    }

    /// Identity names, and ID-6: no assets, not sharable, not below a sharable entity, no
    /// children; identity values are synchronized.
    private mutating func checkIdentity(_ entity: EntityDeclaration) {
        guard let first = entity.identity.first else { return }
        reportDuplicates(entity.identity, kind: "identity attribute")
        for name in entity.identity {
            guard let attribute = entity.attribute(named: name.value) else {
                if entity.relationship(named: name.value) != nil {
                    report(.identityNotAttribute(name.value), at: name.location)
                } else {
                    reportUnknownProperty(name, of: entity)
                }
                continue
            }
            if attribute.isAsset {
                report(.identityAsset(name.value), at: name.location)
            }
            if !entity.isSynchronized(property: name.value) {
                report(.identityNotSynchronized(name.value), at: name.location)
            }
        }
        let entityName = entity.name.value
        if entity.isSharable {
            report(.identitySharable(entityName), at: first.location)
        }
        if let ancestor = sharableAncestor(of: entity) {
            report(.identityBelowSharable(entityName, ancestor: ancestor), at: first.location)
        }
        for other in scenario.entities {
            for relationship in other.relationships
            where relationship.isParent && relationship.target.value == entityName {
                let child = "\(other.name.value).\(relationship.name.value)"
                report(.identityParent(entityName, child: child), at: first.location)
            }
        }
    }

    /// The nearest sharable entity above this one through `parent` relationships, if any.
    private func sharableAncestor(of entity: EntityDeclaration) -> String? {
        var visited = [entity.name.value]
        var current = entity
        // Each step visits a new entity, so the walk ends within the number of entities.
        while let parent = current.parentRelationship,
            let next = scenario.entity(named: parent.target.value),
            !visited.contains(next.name.value)
        {
            if next.isSharable { return next.name.value }
            visited.append(next.name.value)
            current = next
        }
        return nil
    }

    /// CFG-2: a synchronized entity's attributes that are not synchronized must be optional
    /// or defaulted, because downloaded models only receive synchronized values.
    private mutating func checkUnsynchronizedProperties(_ entity: EntityDeclaration) {
        guard entity.isSynchronized else { return }
        for attribute in entity.attributes
        where !entity.isSynchronized(property: attribute.name.value) && !attribute.isOptional
            && attribute.defaultValue == nil
        {
            report(.unsynchronizedRequired(attribute.name.value), at: attribute.name.location)
        }
    }

    private mutating func checkRelationships(_ entity: EntityDeclaration) {
        var parents: [RelationshipDeclaration] = []
        var inverses: [(name: String, owner: String)] = []
        for relationship in entity.relationships {
            if relationship.isParent {
                if let first = parents.first {
                    let note = DiagnosticNote(
                        location: first.location, message: "first parent here")
                    report(.secondParent(entity.name.value), at: relationship.location,
                        notes: [note])
                }
                parents.append(relationship)
            }
            guard let inverse = relationship.inverse else { continue }
            checkInverse(inverse, of: relationship, in: entity)
            let key = relationship.target.value + "." + inverse.value
            if let other = inverses.first(where: { $0.name == key }) {
                report(.sharedInverse(inverse.value, other: other.owner), at: inverse.location)
            }
            inverses.append((key, relationship.name.value))
        }
    }

    /// `inverse(x)` names a to-one relationship of the target entity pointing back here.
    private mutating func checkInverse(
        _ inverse: Located<String>, of relationship: RelationshipDeclaration,
        in entity: EntityDeclaration
    ) {
        guard let target = scenario.entity(named: relationship.target.value) else { return }
        guard let back = target.relationship(named: inverse.value) else {
            let names = target.relationships.map(\.name.value)
            let suggestions = Suggestions.closest(to: inverse.value, among: names)
            report(.unknownInverse(inverse.value, entity: target.name.value,
                suggestions: suggestions), at: inverse.location)
            return
        }
        let pointsBack = back.target.value == entity.name.value
        guard back.cardinality == .toOne, pointsBack else {
            report(.invalidInverse(inverse.value, entity: target.name.value,
                expectedTarget: entity.name.value), at: inverse.location)
            return
        }
        if let backInverse = back.inverse, backInverse.value != relationship.name.value {
            report(.inverseMismatch(relationship.name.value, other: inverse.value,
                otherInverse: backInverse.value), at: inverse.location)
        }
    }
}
