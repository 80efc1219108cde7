import LocalStore
import Testing

@Suite struct RelationshipTests {
    @Test func settingTheToOneSideShowsInTheDerivedToManySide() throws {
        var store = Store(schema: Fixtures.notes())
        let folder = try store.insert("Folder")
        let first = try store.insert("Note", ["folder": to(folder)])
        let second = try store.insert("Note", ["folder": to(folder)])
        #expect(store.models(pointingAt: folder, through: "folder", of: "Note") == [first, second])
        #expect(store.relatedModels(of: folder, relationship: "notes") == [first, second])
        #expect(store.relatedModels(of: first, relationship: "folder") == [folder])
        // The derived side is not stored on the folder.
        #expect(store.model(folder)?.toMany.isEmpty == true)

        try store.update(first, ["folder": to(nil)])
        #expect(store.relatedModels(of: folder, relationship: "notes") == [second])
        #expect(store.model(first)?.target(of: "folder") == nil)
    }

    @Test func settingTheToManySideMovesTheToOnePointers() throws {
        var store = Store(schema: Fixtures.notes())
        let folder = try store.insert("Folder")
        let first = try store.insert("Note")
        let second = try store.insert("Note")
        let third = try store.insert("Note", ["folder": to(folder)])

        let entry = try store.update(folder, ["notes": toMany([second, first, first])])
        #expect(store.relatedModels(of: folder, relationship: "notes") == [first, second])
        #expect(store.model(third)?.toOne["folder"] == nil)
        // Only the notes changed (their `folder`); the folder stores nothing.
        #expect(entry?.changes == [
            .updated(third, entity: "Note", keys: ["folder"]),
            .updated(first, entity: "Note", keys: ["folder"]),
            .updated(second, entity: "Note", keys: ["folder"]),
        ])
    }

    @Test func listingAModelOnAnotherToManySideTakesItAway() throws {
        var store = Store(schema: Fixtures.notes())
        let inbox = try store.insert("Folder")
        let archive = try store.insert("Folder")
        let note = try store.insert("Note", ["folder": to(inbox)])
        try store.update(archive, ["notes": toMany([note])])
        #expect(store.relatedModels(of: inbox, relationship: "notes") == [])
        #expect(store.relatedModels(of: archive, relationship: "notes") == [note])

        try store.update(archive, ["notes": toMany([])])
        #expect(store.model(note)?.toOne.isEmpty == true)
    }

    @Test func theToManySideCanBeGivenOnInsert() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let folder = try store.insert("Folder", ["notes": toMany([note])])
        #expect(store.model(note)?.target(of: "folder") == folder)
    }

    @Test func aToManyWithoutInverseIsStoredSortedWithoutDuplicates() throws {
        var store = Store(schema: Fixtures.notes())
        let red = try store.insert("Tag", ["label": text("red")])
        let blue = try store.insert("Tag", ["label": text("blue")])
        let note = try store.insert("Note")
        let entry = try store.update(note, ["tags": toMany([blue, red, blue])])
        #expect(store.model(note)?.toMany == ["tags": [red, blue]])
        #expect(store.relatedModels(of: note, relationship: "tags") == [red, blue])
        #expect(entry?.changes == [.updated(note, entity: "Note", keys: ["tags"])])

        // An empty list is no key at all, so that equal contents compare equal.
        try store.update(note, ["tags": toMany([])])
        #expect(store.model(note)?.toMany.isEmpty == true)
    }

    @Test func aOneToOnePairStaysInStepFromEitherSide() throws {
        var store = Store(schema: Fixtures.people())
        let ann = try store.insert("Person", ["name": text("Ann")])
        let bob = try store.insert("Person", ["name": text("Bob")])
        let first = try store.insert("Passport")
        let second = try store.insert("Passport")

        try store.update(ann, ["passport": to(first)])
        #expect(store.model(first)?.target(of: "owner") == ann)

        // Bob takes Ann's passport: Ann has none any more.
        let entry = try store.update(bob, ["passport": to(first)])
        #expect(store.model(ann)?.target(of: "passport") == nil)
        #expect(store.model(first)?.target(of: "owner") == bob)
        // The operation's own model first, then those changed through the inverse.
        #expect(entry?.changes == [
            .updated(bob, entity: "Person", keys: ["passport"]),
            .updated(ann, entity: "Person", keys: ["passport"]),
            .updated(first, entity: "Passport", keys: ["owner"]),
        ])

        // From the other side: the second passport's owner becomes Bob, whose first one
        // loses its owner.
        try store.update(second, ["owner": to(bob)])
        #expect(store.model(bob)?.target(of: "passport") == second)
        #expect(store.model(first)?.target(of: "owner") == nil)

        try store.update(bob, ["passport": to(nil)])
        #expect(store.model(second)?.target(of: "owner") == nil)
    }

    @Test func aRelationshipThatIsItsOwnInverseStaysSymmetric() throws {
        var store = Store(schema: Fixtures.people())
        let ann = try store.insert("Person", ["name": text("Ann")])
        let bob = try store.insert("Person", ["name": text("Bob")])
        let cy = try store.insert("Person", ["name": text("Cy")])
        try store.update(ann, ["spouse": to(bob)])
        #expect(store.model(bob)?.target(of: "spouse") == ann)

        try store.update(cy, ["spouse": to(bob)])
        #expect(store.model(ann)?.target(of: "spouse") == nil)
        #expect(store.model(bob)?.target(of: "spouse") == cy)
        #expect(store.model(cy)?.target(of: "spouse") == bob)
    }

    @Test func aManyToManyPairIsStoredOnBothSides() throws {
        var store = Store(schema: Fixtures.people())
        let ann = try store.insert("Person", ["name": text("Ann")])
        let bob = try store.insert("Person", ["name": text("Bob")])
        let chess = try store.insert("Club")
        let choir = try store.insert("Club")
        try store.update(ann, ["clubs": toMany([choir, chess])])
        try store.update(chess, ["members": toMany([bob, ann])])
        #expect(store.relatedModels(of: chess, relationship: "members") == [ann, bob])
        #expect(store.relatedModels(of: bob, relationship: "clubs") == [chess])

        try store.update(ann, ["clubs": toMany([choir])])
        #expect(store.relatedModels(of: chess, relationship: "members") == [bob])
        #expect(store.relatedModels(of: choir, relationship: "members") == [ann])
    }

    @Test func targetsMustExistAndBeOfTheDestination() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let tag = try store.insert("Tag", ["label": text("red")])
        let before = store
        #expect(throws: StoreError.invalidValue(
            entity: "Note", property: "folder", reason: "no model m9"
        )) {
            try store.update(note, ["folder": to(ModelID(9))])
        }
        #expect(throws: StoreError.invalidValue(
            entity: "Note", property: "folder", reason: "\(tag) is a Tag, not a Folder"
        )) {
            try store.update(note, ["folder": to(tag)])
        }
        #expect(throws: StoreError.invalidValue(
            entity: "Folder", property: "notes", reason: "\(tag) is a Tag, not a Note"
        )) {
            try store.insert("Folder", ["notes": toMany([note, tag])])
        }
        #expect(store.models == before.models)
        #expect(store.history(after: 0) == before.history(after: 0))
    }

    @Test func aTargetMayBeInsertedEarlierInTheTransactionButNotDeleted() throws {
        var store = Store(schema: Fixtures.notes())
        let folder = store.makeModelID()
        let note = store.makeModelID()
        try store.save(Transaction([
            .insert(folder, entity: "Folder", values: [:]),
            .insert(note, entity: "Note", values: ["folder": to(folder)]),
        ]), author: "app")
        #expect(store.relatedModels(of: folder, relationship: "notes") == [note])

        let other = store.makeModelID()
        #expect(throws: StoreError.invalidValue(
            entity: "Note", property: "folder", reason: "no model \(folder)"
        )) {
            try store.save(Transaction([
                .delete(folder),
                .insert(other, entity: "Note", values: ["folder": to(folder)]),
            ]), author: "app")
        }
    }
}
