import LocalStore
import Testing

@Suite struct HistoryTests {
    @Test func eachSaveIsOneEntryWithItsAuthorAndAGrowingPosition() throws {
        var store = Store(schema: Fixtures.notes())
        #expect(store.lastHistoryPosition == 0)
        let note = try store.insert("Note", author: "app")
        try store.update(note, ["title": text("B")], author: "sync")
        #expect(store.lastHistoryPosition == 2)
        #expect(store.history(after: 0) == [
            HistoryEntry(position: 1, author: "app", changes: [.inserted(note, entity: "Note")]),
            HistoryEntry(
                position: 2, author: "sync",
                changes: [.updated(note, entity: "Note", keys: ["title"])]
            ),
        ])
        #expect(store.history(after: 1).map(\.position) == [2])
        #expect(store.history(after: 2).isEmpty)
        #expect(store.history(after: -5).count == 2)
    }

    @Test func changesFollowTheOperations() throws {
        var store = Store(schema: Fixtures.notes())
        let old = try store.insert("Note")
        let gone = try store.insert("Note", ["title": text("Gone")])
        let new = store.makeModelID()
        let entry = try #require(try store.save(Transaction([
            .update(old, values: ["title": text("B")]),
            .insert(new, entity: "Note", values: [:]),
            .delete(gone),
        ]), author: "app"))
        let tombstone = Model(
            id: gone, entity: "Note",
            values: [
                "title": .string("Gone"), "pinned": .bool(false), "rank": .int(5),
            ]
        )
        #expect(entry.changes == [
            .updated(old, entity: "Note", keys: ["title"]),
            .inserted(new, entity: "Note"),
            .deleted(gone, entity: "Note", tombstone: tombstone),
        ])
    }

    @Test func updatedListsOnlyTheKeysThatChangedSorted() throws {
        var store = Store(schema: Fixtures.notes())
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["title": text("A"), "pinned": flag(true)])
        let entry = try store.update(note, [
            "title": text("A"), "pinned": flag(false), "body": text("x"), "folder": to(folder),
        ])
        #expect(entry?.changes == [
            .updated(note, entity: "Note", keys: ["body", "folder", "pinned"]),
        ])
    }

    @Test func anUpdateThatChangesNothingIsNoEntry() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note", ["title": text("A")])
        let before = store
        #expect(try store.update(note, ["title": text("A")]) == nil)
        // Changed and changed back within one transaction: nothing either.
        #expect(try store.save(Transaction([
            .update(note, values: ["title": text("B")]),
            .update(note, values: ["title": text("A")]),
        ]), author: "app") == nil)
        #expect(try store.save(Transaction(), author: "app") == nil)
        #expect(store == before)
    }

    @Test func insertedAndUpdatedIsOnlyInserted() throws {
        var store = Store(schema: Fixtures.notes())
        let note = store.makeModelID()
        let entry = try store.save(Transaction([
            .insert(note, entity: "Note", values: [:]),
            .update(note, values: ["title": text("B")]),
        ]), author: "app")
        #expect(entry?.changes == [.inserted(note, entity: "Note")])
        #expect(store.model(note)?.value(of: "title") == .string("B"))
    }

    @Test func insertedAndDeletedIsNowhere() throws {
        var store = Store(schema: Fixtures.notes())
        let note = store.makeModelID()
        let entry = try store.save(Transaction([
            .insert(note, entity: "Note", values: [:]),
            .update(note, values: ["title": text("B")]),
            .delete(note),
        ]), author: "app")
        #expect(entry == nil)
        #expect(store.lastHistoryPosition == 0 && store.models.isEmpty)
    }

    @Test func aTombstoneHoldsTheLastValues() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade))
        let folder = try store.insert("Folder", ["name": text("Inbox")])
        let note = try store.insert("Note", ["title": text("A"), "folder": to(folder)])
        let entry = try #require(try store.save(Transaction([
            .update(note, values: ["title": text("B")]),
            .update(folder, values: ["name": text("Old")]),
            .delete(folder),
        ]), author: "app"))
        // The note was touched first, but its cascaded deletion follows the folder's. Its
        // tombstone keeps the edit and the pointer at its parent, so its record can be named.
        #expect(entry.changes == [
            .deleted(
                folder, entity: "Folder",
                tombstone: Model(id: folder, entity: "Folder", values: ["name": .string("Old")])
            ),
            .deleted(
                note, entity: "Note",
                tombstone: Model(
                    id: note, entity: "Note",
                    values: [
                        "title": .string("B"), "pinned": .bool(false), "rank": .int(5),
                    ],
                    toOne: ["folder": folder]
                )
            ),
        ])
    }

    @Test func aModelChangedByAnOperationAndANullifyIsOneChange() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .nullify))
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(folder)])
        let entry = try store.save(Transaction([
            .update(note, values: ["title": text("B")]), .delete(folder),
        ]), author: "app")
        #expect(entry?.changes.map(\.id) == [note, folder])
        #expect(entry?.changes.first == .updated(note, entity: "Note", keys: ["folder", "title"]))
    }

    @Test func deletingHistoryKeepsPositionsAndSaysWhatWasDiscarded() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        try store.update(note, ["title": text("B")])
        try store.update(note, ["title": text("C")])
        store.deleteHistory(through: 2)
        #expect(store.history(after: 0).map(\.position) == [3])
        #expect(store.historyDiscardedThrough == 2)
        #expect(store.lastHistoryPosition == 3)
        try store.update(note, ["title": text("D")])
        #expect(store.history(after: 0).map(\.position) == [3, 4])
    }
}
