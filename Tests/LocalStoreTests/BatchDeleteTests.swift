import LocalStore
import Testing

@Suite struct BatchDeleteTests {
    @Test func matchingModelsGoWithoutAnyHistory() throws {
        var store = Store(schema: Fixtures.notes())
        let pinned = try store.insert("Note", ["pinned": flag(true)])
        let first = try store.insert("Note", ["title": text("A")])
        let second = try store.insert("Note", ["title": text("A")])
        let other = try store.insert("Note", ["title": text("B")])
        let position = store.lastHistoryPosition

        #expect(store.batchDelete(entity: "Note", where: [
            "pinned": .bool(false), "title": .string("A"),
        ]) == [first, second])
        #expect(store.models.map(\.id) == [pinned, other])
        #expect(store.modelIDs == [pinned, other])
        #expect(store.lastHistoryPosition == position)
        #expect(store.history(after: position).isEmpty)
    }

    @Test func anEmptyFilterTakesEveryModelOfTheEntity() throws {
        var store = Store(schema: Fixtures.notes())
        let first = try store.insert("Note")
        let second = try store.insert("Note")
        let folder = try store.insert("Folder")
        #expect(store.batchDelete(entity: "Note", where: [:]) == [first, second])
        #expect(store.models.map(\.id) == [folder])
        #expect(store.batchDelete(entity: "Note", where: [:]) == [])
    }

    @Test func aFilterNamingNoAttributeMatchesNothing() throws {
        var store = Store(schema: Fixtures.notes())
        try store.insert("Note")
        let before = store
        #expect(store.batchDelete(entity: "Note", where: ["colour": .string("red")]) == [])
        #expect(store.batchDelete(entity: "Memo", where: [:]) == [])
        #expect(store == before)
    }

    @Test func noRuleAppliesButNoPointerIsLeftDangling() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade))
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(folder)])
        let tag = try store.insert("Tag", ["label": text("red")])
        try store.update(note, ["tags": toMany([tag])])
        let bookmark = try store.insert("Bookmark", ["note": to(note)])
        let position = store.lastHistoryPosition

        // The cascade rule would delete the note; a batch delete does not.
        #expect(store.batchDelete(entity: "Folder", where: [:]) == [folder])
        #expect(store.batchDelete(entity: "Tag", where: [:]) == [tag])
        let model = try #require(store.model(note))
        #expect(model.toOne.isEmpty && model.toMany.isEmpty)
        #expect(store.model(bookmark)?.target(of: "note") == note)
        #expect(store.history(after: position).isEmpty)
    }

    @Test func aDenyRuleDoesNotStopIt() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .deny))
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(folder)])
        #expect(store.batchDelete(entity: "Folder", where: [:]) == [folder])
        #expect(store.model(note)?.toOne.isEmpty == true)
    }
}
