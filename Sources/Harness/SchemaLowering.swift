import LocalStore
import Scenario
import SyncContract

/// Turns the scenario's entity declarations into the store's schema.
enum SchemaLowering {
    static func schema(of scenario: ScenarioFile) -> LocalStore.Schema {
        let entities = scenario.entities.map { entity(of: $0, in: scenario) }
        return LocalStore.Schema(entities: entities)
    }

    private static func entity(
        of declaration: EntityDeclaration, in scenario: ScenarioFile
    ) -> EntityDescription {
        let attributes = declaration.attributes.map { attribute in
            let type = LocalStore.AttributeType(rawValue: attribute.type.rawValue) ?? .string
            return AttributeDescription(
                name: attribute.name.value,
                type: type,
                isOptional: attribute.isOptional,
                defaultValue: attribute.defaultValue.flatMap {
                    ValueConversion.attributeValue($0.literal, type: type)
                },
                isAsset: attribute.isAsset
            )
        }
        let relationships = declaration.relationships.map { relationship in
            RelationshipDescription(
                name: relationship.name.value,
                destination: relationship.target.value,
                isToMany: relationship.cardinality == .toMany,
                inverse: relationship.inverse?.value
                    ?? inverse(of: relationship, from: declaration.name.value, in: scenario),
                deleteRule: LocalStore.DeleteRule(rawValue: relationship.deleteRule.rawValue) ??
                    .nullify,
                isParent: relationship.isParent
            )
        }
        return EntityDescription(
            name: declaration.name.value,
            attributes: attributes,
            relationships: relationships,
            sync: syncSpecification(declaration.sync),
            identity: declaration.identity.map(\.value),
            isSharable: declaration.isSharable
        )
    }

    /// The relationship of the target that names this one as its inverse, if any.
    private static func inverse(
        of relationship: RelationshipDeclaration,
        from entity: String,
        in scenario: ScenarioFile
    ) -> String? {
        guard let target = scenario.entity(named: relationship.target.value) else { return nil }
        return target.relationships.first {
            $0.target.value == entity && $0.inverse?.value == relationship.name.value
        }?.name.value
    }

    private static func syncSpecification(
        _ sync: Scenario.SyncSpecification
    ) -> LocalStore.SyncSpecification {
        switch sync {
        case .all: return .all
        case .none: return .none
        case .only(let names): return .only(names.map(\.value))
        case .except(let names): return .except(names.map(\.value))
        }
    }
}

extension SyncView {
    /// A `syncs` list as a view of the schema.
    init(selections: [SyncSelection]) {
        var entities: [String: [String]?] = [:]
        for item in selections {
            let keys: [String]? = item.keys.map { $0.map(\.value) } // tidy: ordered (an array)
            entities[item.entity.value] = keys
        }
        self.init(entities: entities)
    }

    /// An `upgrade` version as a view of the schema.
    init(version: AppVersion) {
        var identities: [String: [String]] = [:]
        for item in version.identities {
            identities[item.entity.value] = (item.keys ?? []).map(\.value)
        }
        if let syncs = version.syncs {
            self = SyncView(selections: syncs)
            self.identities = identities
        } else {
            self.init(entities: nil, identities: identities)
        }
    }
}
