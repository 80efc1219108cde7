import LocalStore
import Testing

@Suite struct LoseAndRebuildTests {
    @Test func aLostStoreIsEmptyAndReusesNoIdentifierNorPosition() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        try store.update(note, ["title": text("B")])
        store.lose()
        #expect(store.models.isEmpty && store.modelCount == 0)
        #expect(store.history(after: 0).isEmpty)
        #expect(store.generation == 1)
        #expect(store.historyDiscardedThrough == 2)
        #expect(store.lastHistoryPosition == 2)

        let next = try store.insert("Note")
        #expect(next == ModelID(2))
        #expect(store.history(after: 2).map(\.position) == [3])
    }

    @Test func aRebuiltStoreHasTheSameModelsUnderNewIdentifiers() throws {
        var store = Store(schema: Fixtures.notes())
        let tag = try store.insert("Tag", ["label": text("red")])
        let folder = try store.insert("Folder", ["name": text("Inbox")])
        let note = try store.insert("Note", ["title": text("A"), "folder": to(folder)])
        try store.update(note, ["tags": toMany([tag])])
        let spare = store.makeModelID()

        let pairs = store.rebuild()
        #expect(pairs.map(\.old) == [tag, folder, note])
        #expect(pairs.map(\.new) == [ModelID(spare.rawValue + 1), ModelID(spare.rawValue + 2),
                                     ModelID(spare.rawValue + 3)])
        let newTag = pairs[0].new
        let newFolder = pairs[1].new
        let newNote = pairs[2].new
        #expect(store.model(tag) == nil && store.model(note) == nil)
        #expect(store.model(newNote) == Model(
            id: newNote, entity: "Note",
            values: ["title": .string("A"), "pinned": .bool(false), "rank": .int(5)],
            toOne: ["folder": newFolder],
            toMany: ["tags": [newTag]]
        ))
        #expect(store.relatedModels(of: newFolder, relationship: "notes") == [newNote])
        #expect(store.history(after: 0).isEmpty)
        #expect(store.generation == 1)
        #expect(store.makeModelID() == ModelID(spare.rawValue + 4))
    }

    @Test func rebuildingAgainGivesNewIdentifiersAgain() throws {
        var store = Store(schema: Fixtures.people())
        let ann = try store.insert("Person", ["name": text("Ann")])
        let bob = try store.insert("Person", ["name": text("Bob"), "spouse": to(ann)])
        let first = store.rebuild()
        let second = store.rebuild()
        #expect(first.map(\.old) == [ann, bob])
        #expect(second.map(\.old) == first.map(\.new))
        let (newAnn, newBob) = (second[0].new, second[1].new)
        #expect(Set([ann, bob]).isDisjoint(with: [newAnn, newBob]))
        #expect(store.model(newAnn)?.target(of: "spouse") == newBob)
        #expect(store.model(newBob)?.target(of: "spouse") == newAnn)
        #expect(store.generation == 2)
    }

    @Test func anEmptyStoreRebuildsToNothing() {
        var store = Store(schema: Fixtures.notes())
        #expect(store.rebuild().isEmpty)
        #expect(store.makeModelID() == ModelID(1))
    }
}
