/// Turns entity blocks as written into attributes and relationships once every entity name
/// is known, reporting types that name nothing and modifiers that do not fit.
extension Parser {
    mutating func resolveEntities() {
        let entityNames = rawEntities.map(\.name.value)
        for raw in rawEntities {
            var entity = EntityDeclaration(
                name: raw.name, sync: raw.sync, syncLocation: raw.syncLocation,
                identity: raw.identity, isSharable: raw.sharableLocation != nil,
                location: raw.location)
            for property in raw.properties {
                if property.isBracketed, AttributeType(rawValue: property.typeName.value) != nil {
                    let type = property.typeName
                    report(.toManyAttribute(type.value), at: type.location)
                    scenario.unresolvedProperties.append("\(raw.name.value).\(property.name.value)")
                } else if let type = AttributeType(rawValue: property.typeName.value) {
                    entity.attributes.append(resolveAttribute(property, type: type))
                } else if entityNames.contains(property.typeName.value) {
                    entity.relationships.append(resolveRelationship(property))
                } else {
                    let candidates = AttributeType.allCases.map(\.rawValue) + entityNames
                    let type = property.typeName
                    let suggestions = Suggestions.closest(to: type.value, among: candidates)
                    report(.unknownType(type.value, suggestions: suggestions), at: type.location)
                    scenario.unresolvedProperties.append("\(raw.name.value).\(property.name.value)")
                }
            }
            scenario.entities.append(entity)
        }
    }

    private mutating func resolveAttribute(
        _ property: RawProperty, type: AttributeType
    ) -> AttributeDeclaration {
        let misplaced: [(String, SourceLocation?)] = [
            ("parent", property.parentLocation), ("inverse", property.inverse?.location),
            (property.deleteRule?.value.rawValue ?? "", property.deleteRule?.location),
        ]
        for case (let modifier, let location?) in misplaced {
            report(.relationshipModifierOnAttribute(modifier, property: property.name.value),
                at: location)
        }
        if let asset = property.assetLocation, type != .data, type != .string {
            report(.assetNeedsDataOrString(property.name.value, type: type.rawValue), at: asset)
        }
        return AttributeDeclaration(
            name: property.name, type: type, isOptional: property.isOptional,
            defaultValue: property.defaultValue, isAsset: property.assetLocation != nil,
            location: property.location)
    }

    private mutating func resolveRelationship(_ property: RawProperty) -> RelationshipDeclaration {
        let cardinality: Cardinality = property.isBracketed ? .toMany : .toOne
        let target = property.typeName
        if cardinality == .toOne && !property.isOptional {
            report(.relationshipNotOptional(property.name.value, suggestions: [target.value + "?"]),
                at: target.location)
        }
        if let value = property.defaultValue {
            report(.relationshipDefault(property.name.value), at: value.location)
        }
        if let asset = property.assetLocation {
            report(.assetNeedsDataOrString(property.name.value, type: target.value), at: asset)
        }
        if let parent = property.parentLocation, cardinality == .toMany {
            report(.parentOnToMany(property.name.value), at: parent)
        }
        return RelationshipDeclaration(
            name: property.name, target: target, cardinality: cardinality,
            inverse: property.inverse, deleteRule: property.deleteRule?.value ?? .nullify,
            isParent: property.parentLocation != nil && cardinality == .toOne,
            location: property.location)
    }
}
