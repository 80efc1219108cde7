import LocalStore
import Testing

@Suite struct SchemaValidationTests {
    @Test func theFixturesAreValid() {
        #expect(Store.validateSchema(Fixtures.notes()).isEmpty)
        #expect(Store.validateSchema(Fixtures.people()).isEmpty)
        #expect(Store.validateSchema(Fixtures.everyType).isEmpty)
    }

    @Test func everyProblemIsReportedInDeclarationOrder() {
        let schema = Schema(entities: [
            EntityDescription(
                name: "Note",
                attributes: [
                    AttributeDescription(name: "title", type: .string, defaultValue: .int(0)),
                    AttributeDescription(name: "title", type: .string, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription(name: "folder", destination: "Folde", isToMany: false),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", isToMany: true, inverse: "notes",
                        isParent: true
                    ),
                    RelationshipDescription(
                        name: "owner", destination: "Tag", isToMany: false, inverse: "label",
                        isParent: true
                    ),
                ],
                identity: ["guid"]
            ),
            EntityDescription(
                name: "Tag",
                relationships: [
                    RelationshipDescription(name: "label", destination: "Tag", isToMany: false)
                ]
            ),
            EntityDescription(name: "Tag"),
        ])
        #expect(Store.validateSchema(schema) == [
            "'Note.title' is declared twice",
            "'Note.title' has a default of type Int, not String",
            "'Note.folder' points at unknown entity 'Folde'",
            "'Note.tags' is a parent reference but to-many",
            "'Note.tags' names inverse 'notes', which 'Tag' lacks",
            "'Note.owner' names inverse 'Tag.label', which points at 'Tag'",
            "'Note' has more than one parent reference",
            "'Note' has identity attribute 'guid', which it does not declare",
            "entity 'Tag' is declared twice",
        ])
    }
}
