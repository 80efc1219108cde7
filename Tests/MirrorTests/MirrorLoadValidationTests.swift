import Foundation
import LocalStore
import Mirror
import SyncContract
import Testing

/// MIR-1: the store-load validation and its error, byte for byte against the log seed 003
/// quotes (copied here: the tests never read the seeds).
@Suite struct MirrorLoadValidationTests {
    /// Seed 003's `NSLocalizedFailureReason`, as its log prints it with `\n` escapes.
    static let seedFailureReason =
        "CloudKit integration requires that all attributes be optional, or have a default value set. "
        + "The following attributes are marked non-optional but do not have a default value:\\nBrew: brewDate"
        + "\\nBrew: brewIdentifier\\nBrew: rating\\nBrew: type\\nCloudKit integration requires that all "
        + "relationships be optional, the following are not:\\nBrewer: brews\\nCloudKit integration does not "
        + "support unique constraints. The following entities are constrained:\\nBrew: brewIdentifier"

    /// The same text as the log's first form prints it, with real line breaks.
    static let seedFailureReasonLines = """
        CloudKit integration requires that all attributes be optional, or have a default value set. \
        The following attributes are marked non-optional but do not have a default value:
        Brew: brewDate
        Brew: brewIdentifier
        Brew: rating
        Brew: type
        CloudKit integration requires that all relationships be optional, the following are not:
        Brewer: brews
        CloudKit integration does not support unique constraints. The following entities are constrained:
        Brew: brewIdentifier
        """

    /// The seed's "before" models. Its `Brewer.brews` is a non-optional to-many (`[Brew]`),
    /// which the scenario format cannot say (MIR-3), so the model is built directly. The log
    /// does not list `Brewer: name`: the model it came from had a default name.
    static let beforeModel = MirrorModel(entities: [
        MirrorModel.Entity(
            name: "Brewer",
            attributes: [MirrorModel.Attribute(name: "name", isOptional: false, hasDefault: true)],
            relationships: [MirrorModel.Relationship(
                name: "brews", destination: "Brew", hasInverse: true, isOptional: false, deleteRule: .cascade)]),
        MirrorModel.Entity(
            name: "Brew",
            attributes: [
                MirrorModel.Attribute(name: "brewIdentifier", isOptional: false, hasDefault: false),
                MirrorModel.Attribute(name: "type", isOptional: false, hasDefault: false),
                MirrorModel.Attribute(name: "rating", isOptional: false, hasDefault: false),
                MirrorModel.Attribute(name: "brewDate", isOptional: false, hasDefault: false),
            ],
            relationships: [MirrorModel.Relationship(name: "brewer", destination: "Brewer", hasInverse: true)],
            uniquenessConstraints: [["brewIdentifier"]]),
    ])

    @Test func theSeedsBeforeModelFailsWithTheLogsTextByteForByte() throws {
        let failure = try #require(MirrorModelValidation.validate(Self.beforeModel))
        #expect(failure.domain == "NSCocoaErrorDomain")
        #expect(failure.code == 134060)
        #expect(Array(failure.failureReason.utf8) == Array(Self.seedFailureReasonLines.utf8))
        let escaped = failure.failureReason.replacingOccurrences(of: "\n", with: "\\n")
        #expect(Array(escaped.utf8) == Array(Self.seedFailureReason.utf8))
        #expect(failure.errorDescription.hasPrefix(
            "Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" "
                + "UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes"))
        #expect(failure.errorDescription.hasSuffix("constrained:\nBrew: brewIdentifier}"))
        #expect(failure.findings.map(\.line) == [
            "Brew: brewDate", "Brew: brewIdentifier", "Brew: rating", "Brew: type", "Brewer: brews",
            "Brew: brewIdentifier",
        ])
    }

    @Test func theSeedsAfterModelLoads() {
        var after = Self.beforeModel
        after.entities[0].relationships[0].isOptional = true
        after.entities[1].attributes = after.entities[1].attributes.map {
            MirrorModel.Attribute(name: $0.name, isOptional: false, hasDefault: true)
        }
        after.entities[1].uniquenessConstraints = []
        #expect(MirrorModelValidation.validate(after) == nil)
    }

    @Test func everySectionComesInApplesOrderWithItsHeaderAndItemForm() throws {
        let model = MirrorModel(entities: [
            MirrorModel.Entity(
                name: "Note",
                attributes: [MirrorModel.Attribute(name: "title", isOptional: false, hasDefault: false)],
                relationships: [
                    MirrorModel.Relationship(name: "tags", destination: "Tag", hasInverse: false, isOrdered: true),
                    MirrorModel.Relationship(name: "owner", destination: "Local", hasInverse: true, isOptional: false,
                                             deleteRule: .deny),
                ],
                uniquenessConstraints: [["title", "day"]],
                estimatedRecordSize: 800_000),
            MirrorModel.Entity(name: "Tag"),
            MirrorModel.Entity(name: "Local", isInConfiguration: false),
        ])
        let failure = try #require(MirrorModelValidation.validate(model))
        #expect(failure.failureReason == """
            CloudKit integration requires that all relationships have an inverse, the following do not:
            Note: tags
            CloudKit integration does not support ordered relationships. The following relationships are marked ordered:
            Note: tags
            CloudKit integration requires that all attributes be optional, or have a default value set. \
            The following attributes are marked non-optional but do not have a default value:
            Note: title
            CloudKit integration requires that all relationships be optional, the following are not:
            Note: owner
            CloudKit integration does not allow relationships to objects that aren't sync'd. \
            The following relationships have destination entities that not in the specified configuration.
            Note: owner - Local
            CloudKit integration requires that all entities can be materialized in a CKRecord of less than \
            700000 bytes. The following entities cannot:
            Note: Estimated size 800000 bytes
            The following relationships are configured with unsupported delete rules:
            Note:owner - Deny
            CloudKit integration does not support unique constraints. The following entities are constrained:
            Note: title, day
            """)
    }

    @Test func itemsAreSortedCaseInsensitively() throws {
        let model = MirrorModel(entities: [
            MirrorModel.Entity(name: "b", attributes: [
                MirrorModel.Attribute(name: "Zeta", isOptional: false, hasDefault: false),
                MirrorModel.Attribute(name: "alpha", isOptional: false, hasDefault: false),
            ]),
            MirrorModel.Entity(name: "A", attributes: [
                MirrorModel.Attribute(name: "x", isOptional: false, hasDefault: false),
            ]),
        ])
        let failure = try #require(MirrorModelValidation.validate(model))
        #expect(failure.findings.map(\.line) == ["A: x", "b: alpha", "b: Zeta"])
    }

    /// MIR-3: the scenario schema's mapping: identity, `sync none`, `deny`, a missing
    /// inverse; `sync only` means nothing; an optional or defaulted attribute passes.
    @Test func theScenarioSchemaMapsOntoTheChecks() throws {
        let schema = LocalStore.Schema(entities: [
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: "title", type: .string, defaultValue: .string("")),
                    AttributeDescription(name: "day", type: .date),
                    AttributeDescription(name: "body", type: .string, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription(name: "draft", destination: "Draft", isToMany: false, inverse: "note"),
                    RelationshipDescription(name: "folder", destination: "Folder", isToMany: false),
                ],
                sync: .only(["title"]), identity: ["title"]),
            EntityDescription(name: "Folder", relationships: [
                RelationshipDescription(name: "pinned", destination: "Note", isToMany: false, inverse: "x",
                                        deleteRule: .deny),
            ]),
            EntityDescription(name: "Draft", relationships: [
                RelationshipDescription(name: "note", destination: "Note", isToMany: false, inverse: "draft"),
            ], sync: .none),
        ])
        let failure = try #require(MirrorModelValidation.validate(schema))
        #expect(failure.failureReason == """
            CloudKit integration requires that all relationships have an inverse, the following do not:
            Note: folder
            CloudKit integration requires that all attributes be optional, or have a default value set. \
            The following attributes are marked non-optional but do not have a default value:
            Note: day
            CloudKit integration does not allow relationships to objects that aren't sync'd. \
            The following relationships have destination entities that not in the specified configuration.
            Note: draft - Draft
            The following relationships are configured with unsupported delete rules:
            Folder:pinned - Deny
            CloudKit integration does not support unique constraints. The following entities are constrained:
            Note: title
            """)
        #expect(failure.rules.contains("MIR-1"))
        #expect(failure.findings.first?.property == "folder")
    }

    @Test func theProfileOffersTheHookAndACompatibleSchemaLoads() {
        let schema = LocalStore.Schema(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string, defaultValue: .string("")),
            AttributeDescription(name: "body", type: .string, isOptional: true),
        ])])
        #expect(MirrorProfile.profile.validateSchema?(schema) == nil)
        let broken = LocalStore.Schema(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ])])
        #expect(MirrorProfile.profile.validateSchema?(broken)?.code == 134060)
    }
}
