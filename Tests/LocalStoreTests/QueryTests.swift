import LocalStore
import Testing

@Suite struct QueryTests {
    @Test func modelsComeSortedByIdentifier() throws {
        var store = Store(schema: Fixtures.notes())
        let ids = try (0..<20).map { index throws(StoreError) in
            try store.insert(index.isMultiple(of: 2) ? "Note" : "Folder")
        }
        #expect(store.models.map(\.id) == ids)
        #expect(store.models(of: "Note").map(\.id) == ids.enumerated().filter {
            $0.offset.isMultiple(of: 2)
        }.map(\.element))
        #expect(store.modelCount == 20)
        #expect(store.contains(ids[3]) && !store.contains(ModelID(99)))
        #expect(store.models(of: "Memo").isEmpty)
    }

    @Test func attributeFiltersMatchEveryGivenValue() throws {
        var store = Store(schema: Fixtures.notes())
        let a = try store.insert("Note", ["title": text("x"), "pinned": flag(true)])
        let b = try store.insert("Note", ["title": text("x")])
        try store.insert("Note", ["title": text("y"), "pinned": flag(true)])
        #expect(store.models(of: "Note", where: ["title": .string("x")]).map(\.id) == [a, b])
        #expect(store.models(of: "Note", where: [
            "title": .string("x"), "pinned": .bool(true),
        ]).map(\.id) == [a])
        #expect(store.count(of: "Note") == 3)
        #expect(store.count(of: "Note", where: ["pinned": .bool(true)]) == 2)
        #expect(store.count(of: "Note", where: ["body": .string("x")]) == 0)
    }

    @Test func relatedModelsAnswerEveryKindOfRelationship() throws {
        var store = Store(schema: Fixtures.people())
        let ann = try store.insert("Person", ["name": text("Ann")])
        let passport = try store.insert("Passport", ["owner": to(ann)])
        let club = try store.insert("Club", ["members": toMany([ann])])
        #expect(store.relatedModels(of: ann, relationship: "passport") == [passport])
        #expect(store.relatedModels(of: passport, relationship: "owner") == [ann])
        #expect(store.relatedModels(of: ann, relationship: "spouse") == [])
        #expect(store.relatedModels(of: ann, relationship: "clubs") == [club])
        #expect(store.relatedModels(of: ModelID(99), relationship: "clubs") == [])
    }

    @Test func inversesAreFoundFromEitherSide() throws {
        let schema = Fixtures.notes()
        let note = try #require(schema.entity(named: "Note"))
        let folder = try #require(schema.entity(named: "Folder"))
        let noteFolder = try #require(note.relationship(named: "folder"))
        let folderNotes = try #require(folder.relationship(named: "notes"))
        let tags = try #require(note.relationship(named: "tags"))
        #expect(schema.inverse(of: noteFolder, in: "Note") == folderNotes)
        #expect(schema.inverse(of: folderNotes, in: "Folder") == noteFolder)
        #expect(schema.inverse(of: tags, in: "Note") == nil)
        #expect(schema.isDerived(folderNotes, in: "Folder"))
        #expect(!schema.isDerived(noteFolder, in: "Note"))
        #expect(!schema.isDerived(tags, in: "Note"))

        let people = Fixtures.people()
        let clubs = try #require(people.entity(named: "Person")?.relationship(named: "clubs"))
        #expect(!people.isDerived(clubs, in: "Person"))
    }

    @Test func modelsShowTheirValuesAndTargets() {
        let model = Model(
            id: ModelID(4), entity: "Note",
            values: ["title": .string("A")], toOne: ["folder": ModelID(2)]
        )
        #expect(model.value(of: "title") == .string("A"))
        #expect(model.value(of: "body") == nil)
        #expect(model.target(of: "folder") == ModelID(2))
        #expect(model.target(of: "title") == nil)
    }
}
