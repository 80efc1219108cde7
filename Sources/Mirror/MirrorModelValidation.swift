import LocalStore
import SyncContract

/// MIR-1: the checks Core Data runs on the model when a CloudKit-backed store loads, and the
/// error it fails with (NSCocoaErrorDomain 134060), word for word.
///
/// The checks read a `MirrorModel`, which can say what the scenario format cannot (ordered
/// and non-optional to-many relationships, an entity's estimated record size); MIR-3 says how
/// a scenario schema maps onto it.
public enum MirrorModelValidation {
    public static let domain = "NSCocoaErrorDomain"
    public static let code = 134060
    public static let localizedDescription = "A Core Data error occurred."
    /// MIR-1, check 6: the largest record an entity may need.
    public static let recordSizeLimit = 700_000

    /// The sections of the failure reason, in Apple's order, with Apple's headers.
    public enum Section: Int, CaseIterable, Sendable {
        case missingInverse = 1
        case ordered
        case requiredAttribute
        case requiredRelationship
        case destinationNotSynced
        case recordTooLarge
        case unsupportedDeleteRule
        case uniqueConstraint

        public var header: String {
            switch self {
            case .missingInverse:
                return "CloudKit integration requires that all relationships have an inverse, the "
                    + "following do not:"
            case .ordered:
                return "CloudKit integration does not support ordered relationships. The following "
                    + "relationships are marked ordered:"
            case .requiredAttribute:
                return "CloudKit integration requires that all attributes be optional, or have a "
                    + "default value set. "
                    + "The following attributes are marked non-optional but do not have a default "
                        + "value:"
            case .requiredRelationship:
                return "CloudKit integration requires that all relationships be optional, the "
                    + "following are not:"
            case .destinationNotSynced:
                return "CloudKit integration does not allow relationships to objects that aren't "
                    + "sync'd. "
                    + "The following relationships have destination entities that not in the "
                        + "specified configuration."
            case .recordTooLarge:
                return "CloudKit integration requires that all entities can be materialized in a "
                    + "CKRecord of less than "
                    + "700000 bytes. The following entities cannot:"
            case .unsupportedDeleteRule:
                return "The following relationships are configured with unsupported delete rules:"
            case .uniqueConstraint:
                return "CloudKit integration does not support unique constraints. The following "
                    + "entities are constrained:"
            }
        }
    }

    /// Validates a model: nil when the store loads, else the failure Core Data reports.
    public static func validate(_ model: MirrorModel) -> StoreLoadFailure? {
        var items: [Section: [StoreLoadFailure.Finding]] = [:]
        func add(_ section: Section, _ entity: String, _ property: String?, _ line: String) {
            items[section, default: []].append(StoreLoadFailure.Finding(
                entity: entity, property: property, line: line, section: section.header))
        }
        let configured = Set(model.entities.filter(\.isInConfiguration).map(\.name))
        for entity in model.entities where entity.isInConfiguration {
            for attribute in entity.attributes where !attribute.isOptional
                && !attribute.hasDefault {
                add(.requiredAttribute, entity.name, attribute.name,
                    "\(entity.name): \(attribute.name)")
            }
            for relationship in entity.relationships {
                let name = relationship.name
                if !relationship.hasInverse {
                    add(.missingInverse, entity.name, name, "\(entity.name): \(name)")
                }
                if relationship.isOrdered {
                    add(.ordered, entity.name, name, "\(entity.name): \(name)")
                }
                if !relationship.isOptional {
                    add(.requiredRelationship, entity.name, name, "\(entity.name): \(name)")
                }
                if !configured.contains(relationship.destination) {
                    add(.destinationNotSynced, entity.name, name,
                        "\(entity.name): \(name) - \(relationship.destination)")
                }
                if relationship.deleteRule == .deny {
                    add(.unsupportedDeleteRule, entity.name, name, "\(entity.name):\(name) - Deny")
                }
            }
            if entity.estimatedRecordSize >= recordSizeLimit {
                add(.recordTooLarge, entity.name, nil,
                    "\(entity.name): Estimated size \(entity.estimatedRecordSize) bytes")
            }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                add(.uniqueConstraint, entity.name, constraint.first,
                    "\(entity.name): \(constraint.joined(separator: ", "))")
            }
        }
        var lines: [String] = []
        var findings: [StoreLoadFailure.Finding] = []
        for section in Section.allCases {
            guard let listed = items[section], !listed.isEmpty else { continue }
            let sorted = listed.sorted(by: caseInsensitiveOrder)
            lines.append(section.header)
            lines += sorted.map(\.line)
            findings += sorted
        }
        guard !findings.isEmpty else { return nil }
        return StoreLoadFailure(
            domain: domain, code: code, localizedDescription: localizedDescription,
            failureReason: lines.joined(separator: "\n"), findings: findings,
            rules: ["MIR-1", "MIR-2", "MIR-3", "MIRW-7"])
    }

    /// MIR-3: the scenario schema as Core Data's model. `sync none` entities are outside the
    /// CloudKit configuration; `sync only`/`except` mean nothing (every property of a mirrored
    /// entity is mirrored); `identity(a, b)` is a unique constraint; a relationship neither
    /// side declares an inverse for has none; relationships are optional (the format's
    /// to-one is `X?`, and a to-many counts as optional); nothing is ordered.
    public static func model(of schema: LocalStore.Schema) -> MirrorModel {
        MirrorModel(entities: schema.entities.map { entity in
            MirrorModel.Entity(
                name: entity.name,
                isInConfiguration: entity.isSynchronized,
                attributes: entity.attributes.map {
                    MirrorModel.Attribute(name: $0.name, isOptional: $0.isOptional,
                                          hasDefault: $0.defaultValue != nil)
                },
                relationships: entity.relationships.map {
                    MirrorModel.Relationship(
                        name: $0.name, destination: $0.destination, hasInverse: $0.inverse != nil,
                        isOrdered: false, isOptional: true, deleteRule: $0.deleteRule)
                },
                uniquenessConstraints: entity.identity.isEmpty ? [] : [entity.identity],
                estimatedRecordSize: estimatedSize(of: entity))
        })
    }

    /// Validates a scenario schema (the profile's `validateSchema`).
    public static func validate(_ schema: LocalStore.Schema) -> StoreLoadFailure? {
        validate(model(of: schema))
    }

    /// The record size Core Data estimates for an entity: fixed-size values only, since a
    /// String or Data value too large for the record goes into an asset (MIR-23).
    static func estimatedSize(of entity: EntityDescription) -> Int {
        var size = "CD_entityName".utf8.count + entity.name.utf8.count
        for attribute in entity.attributes {
            switch attribute.type {
            case .int, .double, .bool, .date: size += 8
            case .uuid: size += 36
            case .string, .url, .data: size += 0
            }
            size += 3 + attribute.name.utf8.count
        }
        for relationship in entity.relationships where !relationship.isToMany {
            size += 3 + relationship.name.utf8.count + 36
        }
        return size
    }

    /// Lines sorted case-insensitively, ties in plain order (so the order never depends on
    /// how the model listed them).
    static func caseInsensitiveOrder(
        _ a: StoreLoadFailure.Finding, _ b: StoreLoadFailure.Finding
    ) -> Bool {
        let left = a.line.lowercased()
        let right = b.line.lowercased()
        return left != right ? left < right : a.line < b.line
    }
}

/// The model as Core Data's CloudKit validator sees it (MIR-1).
public struct MirrorModel: Hashable, Sendable {
    public struct Attribute: Hashable, Sendable {
        public var name: String
        public var isOptional: Bool
        public var hasDefault: Bool

        public init(name: String, isOptional: Bool, hasDefault: Bool) {
            self.name = name
            self.isOptional = isOptional
            self.hasDefault = hasDefault
        }
    }

    public struct Relationship: Hashable, Sendable {
        public var name: String
        public var destination: String
        public var hasInverse: Bool
        public var isOrdered: Bool
        public var isOptional: Bool
        public var deleteRule: DeleteRule

        public init(
            name: String, destination: String, hasInverse: Bool, isOrdered: Bool = false,
            isOptional: Bool = true, deleteRule: DeleteRule = .nullify
        ) {
            self.name = name
            self.destination = destination
            self.hasInverse = hasInverse
            self.isOrdered = isOrdered
            self.isOptional = isOptional
            self.deleteRule = deleteRule
        }
    }

    public struct Entity: Hashable, Sendable {
        public var name: String
        /// In the CloudKit configuration (mirrored).
        public var isInConfiguration: Bool
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// `@Attribute(.unique)` / uniqueness constraints, each a list of attribute names.
        public var uniquenessConstraints: [[String]]
        public var estimatedRecordSize: Int

        public init(
            name: String, isInConfiguration: Bool = true, attributes: [Attribute] = [],
            relationships: [Relationship] = [], uniquenessConstraints: [[String]] = [],
            estimatedRecordSize: Int = 0
        ) {
            self.name = name
            self.isInConfiguration = isInConfiguration
            self.attributes = attributes
            self.relationships = relationships
            self.uniquenessConstraints = uniquenessConstraints
            self.estimatedRecordSize = estimatedRecordSize
        }
    }

    public var entities: [Entity]

    public init(entities: [Entity]) {
        self.entities = entities
    }
}
