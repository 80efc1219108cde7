import LocalStore
import Testing

/// A refused save leaves the store equal to what it was, whatever the transaction had
/// changed before the refusal.
@Suite struct AtomicityTests {
    /// Models of both fixtures' kinds, related every way, with some history.
    struct Scene {
        var store = Store(schema: Schema(entities:
            Fixtures.notes(folderNotes: .cascade).entities + Fixtures.people().entities
        ))
        var folder = ModelID(0), note = ModelID(0), other = ModelID(0), tag = ModelID(0)
        var ann = ModelID(0), bob = ModelID(0), passport = ModelID(0), club = ModelID(0)

        init() throws {
            folder = try store.insert("Folder", ["name": text("Inbox")])
            note = try store.insert("Note", ["title": text("A"), "folder": to(folder)])
            other = try store.insert("Note", ["folder": to(folder)])
            tag = try store.insert("Tag", ["label": text("red")])
            try store.update(note, ["tags": toMany([tag])])
            ann = try store.insert("Person", ["name": text("Ann")])
            bob = try store.insert("Person", ["name": text("Bob"), "spouse": to(ann)])
            passport = try store.insert("Passport", ["owner": to(ann)])
            club = try store.insert("Club", ["members": toMany([ann, bob])])
        }
    }

    enum Failure: String, CaseIterable {
        case wrongTypeAfterPairing
        case unknownModelAfterMovingNotes
        case requiredValueMissingAfterCascade
        case unknownPropertyAfterManyToMany
        case unreservedIdentifierThenWrongTarget
        case requiredValueClearedAfterInsertsAndDeletes
        case unknownModelAfterValuesChangedTwiceAndCascaded

        func transaction(in scene: Scene) -> Transaction {
            let spare = ModelID(1000)
            switch self {
            case .wrongTypeAfterPairing:
                return Transaction([
                    .update(scene.bob, values: [
                        "passport": to(scene.passport), "spouse": to(nil),
                    ]),
                    .update(scene.ann, values: ["name": number(3)]),
                ])
            case .unknownModelAfterMovingNotes:
                return Transaction([
                    .insert(spare, entity: "Folder", values: ["notes": toMany([scene.note])]),
                    .update(ModelID(999), values: [:]),
                ])
            case .requiredValueMissingAfterCascade:
                return Transaction([
                    .delete(scene.folder),
                    .insert(spare, entity: "Tag", values: [:]),
                ])
            case .unknownPropertyAfterManyToMany:
                return Transaction([
                    .update(scene.club, values: ["members": toMany([])]),
                    .delete(scene.tag),
                    .update(scene.note, values: ["colour": text("red")]),
                ])
            case .unreservedIdentifierThenWrongTarget:
                return Transaction([
                    .insert(spare, entity: "Note", values: ["title": text("New")]),
                    .update(scene.other, values: ["folder": to(scene.tag)]),
                ])
            case .requiredValueClearedAfterInsertsAndDeletes:
                return Transaction([
                    .insert(spare, entity: "Passport", values: ["owner": to(scene.bob)]),
                    .delete(scene.note),
                    .delete(spare),
                    .update(scene.folder, values: ["name": text("Old")]),
                    .update(scene.ann, values: ["name": cleared]),
                ])
            case .unknownModelAfterValuesChangedTwiceAndCascaded:
                // The note's old title is put back on the model the cascade buried.
                return Transaction([
                    .update(scene.note, values: ["title": text("B"), "body": text("b")]),
                    .update(scene.note, values: ["title": text("C")]),
                    .update(scene.folder, values: ["name": text("Old")]),
                    .delete(scene.folder),
                    .update(ModelID(999), values: [:]),
                ])
            }
        }
    }

    @Test(arguments: Failure.allCases)
    func aRefusedSaveLeavesTheStoreAsItWas(failure: Failure) throws {
        var scene = try Scene()
        let before = scene.store
        let transaction = failure.transaction(in: scene)
        #expect(throws: StoreError.self) {
            try scene.store.save(transaction, author: "app")
        }
        #expect(scene.store == before)
        #expect(scene.store.makeModelID() == ModelID(9))
    }

    @Test func denyRefusalLeavesTheStoreAsItWas() throws {
        var store = Store(schema: Fixtures.people(passportRule: .deny))
        let ann = try store.insert("Person", ["name": text("Ann")])
        let bob = try store.insert("Person", ["name": text("Bob"), "spouse": to(ann)])
        try store.insert("Passport", ["owner": to(ann)])
        let before = store
        #expect(throws: StoreError.deleteDenied(ann, relationship: "passport")) {
            try store.save(Transaction([
                .update(bob, values: ["name": text("Robert")]), .delete(ann),
            ]), author: "app")
        }
        #expect(store == before)
    }

    @Test func aTransactionNotSavedLeavesNoTrace() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let before = store
        // Rolling back is dropping the transaction (DEL-1).
        var transaction = Transaction()
        transaction.append(.update(note, values: ["title": text("B")]))
        transaction.append(.delete(note))
        #expect(!transaction.isEmpty)
        #expect(store == before)
        #expect(store.history(after: 0).count == 1)
    }

    @Test func aCopyIsUnchangedBySavesToTheOriginal() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let copy = store
        try store.update(note, ["title": text("B")])
        #expect(copy.model(note)?.value(of: "title") == .string(""))
        #expect(copy.lastHistoryPosition == 1)
        #expect(store != copy)
    }
}
