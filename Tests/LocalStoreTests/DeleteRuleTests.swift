import LocalStore
import Testing

@Suite struct DeleteRuleTests {
    @Test func cascadeDeletesTheRelatedModelsAfterTheirCause() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade))
        let folder = try store.insert("Folder", ["name": text("Inbox")])
        let first = try store.insert("Note", ["folder": to(folder)])
        let second = try store.insert("Note", ["folder": to(folder)])
        let kept = try store.insert("Note")

        let entry = try #require(try store.delete(folder))
        #expect(store.models.map(\.id) == [kept])
        #expect(entry.changes.map(\.id) == [folder, first, second])
        #expect(entry.changes.allSatisfy { $0.isDeletion })
    }

    @Test func nestedCascadesGoDepthFirst() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade, noteAttachments: .cascade))
        let folder = try store.insert("Folder")
        let first = try store.insert("Note", ["folder": to(folder)])
        let second = try store.insert("Note", ["folder": to(folder)])
        let firstFile = try store.insert("Attachment", ["note": to(first)])
        let secondFile = try store.insert("Attachment", ["note": to(second)])
        let thirdFile = try store.insert("Attachment", ["note": to(first)])

        let entry = try #require(try store.delete(folder))
        #expect(entry.changes.map(\.id) == [
            folder, first, firstFile, thirdFile, second, secondFile,
        ])
        #expect(store.models.isEmpty)
    }

    @Test func cascadesInACycleEnd() throws {
        // Deleting a note deletes its folder, which deletes every note in it.
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade, noteFolder: .cascade))
        let folder = try store.insert("Folder")
        let first = try store.insert("Note", ["folder": to(folder)])
        let second = try store.insert("Note", ["folder": to(folder)])
        let entry = try #require(try store.delete(second))
        #expect(entry.changes.map(\.id) == [second, folder, first])
        #expect(store.models.isEmpty)
    }

    @Test func cascadesAroundARingOfModelsEnd() throws {
        let schema = Schema(entities: [
            EntityDescription(
                name: "Link",
                relationships: [
                    RelationshipDescription(
                        name: "next", destination: "Link", isToMany: false, deleteRule: .cascade
                    )
                ]
            )
        ])
        var store = Store(schema: schema)
        let a = try store.insert("Link")
        let b = try store.insert("Link", ["next": to(a)])
        let c = try store.insert("Link", ["next": to(b)])
        try store.update(a, ["next": to(c)])
        let entry = try #require(try store.delete(b))
        #expect(entry.changes.map(\.id) == [b, a, c])
        #expect(store.models.isEmpty)
    }

    @Test func nullifyClearsThePointersBackAndRecordsThemAfterTheDeletions() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .nullify))
        let folder = try store.insert("Folder")
        let first = try store.insert("Note", ["folder": to(folder)])
        let second = try store.insert("Note", ["folder": to(folder)])
        let entry = try #require(try store.delete(folder))
        #expect(store.model(first)?.toOne.isEmpty == true)
        #expect(store.model(second)?.toOne.isEmpty == true)
        #expect(entry.changes.map(\.id) == [folder, first, second])
        #expect(entry.changes.dropFirst() == [
            .updated(first, entity: "Note", keys: ["folder"]),
            .updated(second, entity: "Note", keys: ["folder"]),
        ])
    }

    @Test func nullifyClearsAOneToOnePartner() throws {
        var store = Store(schema: Fixtures.people(passportRule: .nullify))
        let ann = try store.insert("Person", ["name": text("Ann")])
        let passport = try store.insert("Passport", ["owner": to(ann)])
        let entry = try #require(try store.delete(ann))
        #expect(store.model(passport)?.toOne.isEmpty == true)
        #expect(entry.changes.last == .updated(passport, entity: "Passport", keys: ["owner"]))
    }

    @Test func denyRefusesWhileARelatedModelStays() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .deny))
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(folder)])
        let before = store
        #expect(throws: StoreError.deleteDenied(folder, relationship: "notes")) {
            try store.delete(folder)
        }
        #expect(store == before)

        // Deleted together, nothing stays to deny it.
        let entry = try #require(try store.delete(folder, note))
        #expect(entry.changes.map(\.id) == [folder, note])
        #expect(store.models.isEmpty)
    }

    @Test func denyAllowsAnEmptyRelationship() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .deny))
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(folder)])
        // The note moves out earlier in the transaction: the rule sees the folder empty.
        try store.save(Transaction([
            .update(note, values: ["folder": to(nil)]), .delete(folder),
        ]), author: "app")
        #expect(store.models.map(\.id) == [note])
    }

    @Test func denyCountsModelsACascadeDeletesInTheSameTransaction() throws {
        // Deleting a note cascades to its folder, which denies while notes stay: the only
        // note goes too, so it is allowed.
        var store = Store(schema: Fixtures.notes(folderNotes: .deny, noteFolder: .cascade))
        let folder = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(folder)])
        try store.delete(note)
        #expect(store.models.isEmpty)

        let other = try store.insert("Folder")
        let first = try store.insert("Note", ["folder": to(other)])
        try store.insert("Note", ["folder": to(other)])
        #expect(throws: StoreError.deleteDenied(other, relationship: "notes")) {
            try store.delete(first)
        }
    }

    @Test func rulesApplyToTheRelationshipsAsTheTransactionLeavesThem() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade))
        let folder = try store.insert("Folder")
        let inbox = try store.insert("Folder")
        let moved = try store.insert("Note", ["folder": to(folder)])
        let doomed = try store.insert("Note", ["folder": to(folder)])
        let entry = try #require(try store.save(Transaction([
            .delete(folder), .update(moved, values: ["folder": to(inbox)]),
        ]), author: "app"))
        #expect(store.models.map(\.id) == [inbox, moved])
        #expect(entry.changes.map(\.id) == [folder, doomed, moved])
    }

    @Test func aModelDeletedByTheTransactionCannotBeUpdatedByIt() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        #expect(throws: StoreError.unknownModel(note)) {
            try store.save(Transaction([
                .delete(note), .update(note, values: ["title": text("B")]),
            ]), author: "app")
        }
        // Deleting twice is deleting once.
        let entry = try store.save(Transaction([.delete(note), .delete(note)]), author: "app")
        #expect(entry?.changes.map(\.id) == [note])
    }

    @Test func pointersNoRuleNamesAreClearedToo() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let tag = try store.insert("Tag", ["label": text("red")])
        let other = try store.insert("Tag", ["label": text("blue")])
        try store.update(note, ["tags": toMany([tag, other])])
        let bookmark = try store.insert("Bookmark", ["note": to(note)])
        let attachment = try store.insert("Attachment", ["note": to(note)])

        // A tag has no relationship back to notes; its deletion still leaves none dangling.
        let tagEntry = try #require(try store.delete(tag))
        #expect(store.model(note)?.toMany == ["tags": [other]])
        #expect(tagEntry.changes.last == .updated(note, entity: "Note", keys: ["tags"]))

        try store.update(note, ["attachments": toMany([])])
        let noteEntry = try #require(try store.delete(note))
        #expect(store.model(bookmark)?.toOne.isEmpty == true)
        #expect(store.model(attachment)?.toOne.isEmpty == true)
        #expect(noteEntry.changes.map(\.id) == [note, bookmark])
    }

    @Test func modelsInsertedAndCascadedInOneTransactionLeaveNoTrace() throws {
        var store = Store(schema: Fixtures.notes(folderNotes: .cascade))
        let folder = try store.insert("Folder")
        let note = store.makeModelID()
        let entry = try #require(try store.save(Transaction([
            .insert(note, entity: "Note", values: ["folder": to(folder)]), .delete(folder),
        ]), author: "app"))
        #expect(entry.changes.map(\.id) == [folder])
        #expect(store.models.isEmpty)
    }
}

extension HistoryChange {
    var id: ModelID {
        switch self {
        case .inserted(let id, _), .updated(let id, _, _), .deleted(let id, _, _): return id
        }
    }

    var isDeletion: Bool {
        if case .deleted = self { return true }
        return false
    }
}
