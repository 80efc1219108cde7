import LocalStore
import Testing

@Suite struct InsertTests {
    @Test func attributesNotGivenTakeTheirDefaults() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note", ["body": text("milk")])
        let model = try #require(store.model(note))
        #expect(model.values == [
            "title": .string(""), "body": .string("milk"), "pinned": .bool(false), "rank": .int(5),
        ])
        #expect(model.entity == "Note")
        #expect(model.toOne.isEmpty && model.toMany.isEmpty)
    }

    @Test func givenValuesReplaceDefaults() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note", [
            "title": text("A"), "pinned": flag(true), "rank": cleared,
        ])
        let model = try #require(store.model(note))
        #expect(model.value(of: "title") == .string("A"))
        #expect(model.value(of: "pinned") == .bool(true))
        // An optional attribute cleared on insert has no value, default or not.
        #expect(model.value(of: "rank") == nil)
        #expect(model.value(of: "body") == nil)
    }

    @Test func identifiersComeFromACounterStartingAtOne() {
        var store = Store(schema: Fixtures.notes())
        #expect(store.makeModelID() == ModelID(1))
        #expect(store.makeModelID() == ModelID(2))
        #expect(store.makeModelID().description == "m3")
    }

    @Test func anIdentifierNotReservedIsNeverHandedOutLater() throws {
        var store = Store(schema: Fixtures.notes())
        try store.save(Transaction([.insert(ModelID(7), entity: "Note", values: [:])]), author: "a")
        #expect(store.makeModelID() == ModelID(8))
    }

    @Test func requiredValueMissingIsRefused() throws {
        var store = Store(schema: Fixtures.notes())
        let before = store
        #expect(throws: StoreError.invalidValue(
            entity: "Tag", property: "label", reason: "required value missing"
        )) {
            try store.insert("Tag")
        }
        // The reserved identifier is used up, nothing else changed.
        #expect(store.models.isEmpty && store.lastHistoryPosition == 0)
        #expect(store.history(after: 0) == before.history(after: 0))
    }

    @Test func requiredValueClearedByAnUpdateIsRefused() throws {
        var store = Store(schema: Fixtures.notes())
        let tag = try store.insert("Tag", ["label": text("red")])
        let before = store
        #expect(throws: StoreError.invalidValue(
            entity: "Tag", property: "label", reason: "required value missing"
        )) {
            try store.update(tag, ["label": cleared])
        }
        #expect(store == before)
    }

    @Test func requiredValueMayArriveLaterInTheSameTransaction() throws {
        var store = Store(schema: Fixtures.notes())
        let tag = store.makeModelID()
        let entry = try store.save(Transaction([
            .insert(tag, entity: "Tag", values: [:]),
            .update(tag, values: ["label": text("red")]),
        ]), author: "app")
        #expect(store.model(tag)?.value(of: "label") == .string("red"))
        #expect(entry?.changes == [.inserted(tag, entity: "Tag")])
    }

    @Test func clearingANonOptionalAttributeWithADefaultStoresTheDefault() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note", ["title": text("A")])
        let entry = try store.update(note, ["title": cleared])
        #expect(store.model(note)?.value(of: "title") == .string(""))
        #expect(entry?.changes == [.updated(note, entity: "Note", keys: ["title"])])
    }

    @Test func clearingAnOptionalAttributeRemovesItsValue() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note", ["body": text("milk")])
        try store.update(note, ["body": cleared, "rank": cleared])
        #expect(store.model(note)?.values == ["title": .string(""), "pinned": .bool(false)])
    }

    @Test(arguments: [
        ("title", PropertyValue.attribute(.int(3)), "expected String, got Int"),
        ("pinned", .attribute(.string("yes")), "expected Bool, got String"),
        ("rank", .attribute(.double(1.5)), "expected Int, got Double"),
        ("title", .relationship(nil), "expected a value of type String, not a relationship"),
        ("folder", .attribute(.string("f")), "expected one Folder or nil"),
        ("folder", .relationships([]), "expected one Folder or nil"),
        ("tags", .relationship(nil), "expected a list of Tag"),
        ("attachments", .attribute(nil), "expected a list of Attachment"),
    ])
    func wrongTypesAreRefused(property: String, value: PropertyValue, reason: String) throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let before = store
        let refusal = StoreError.invalidValue(entity: "Note", property: property, reason: reason)
        #expect(throws: refusal) {
            try store.update(note, [property: value])
        }
        #expect(store == before)
    }

    @Test(arguments: [
        (AttributeValue.string("x"), "string"), (.int(-3), "int"), (.double(2.5), "double"),
        (.bool(true), "bool"), (.date(millisecondsSince1970: 1_767_261_600_123), "date"),
        (.uuid("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"), "uuid"),
        (.url("https://example.org/rss"), "url"), (.data([0, 255]), "data"),
    ])
    func everyTypeIsStored(value: AttributeValue, property: String) throws {
        var store = Store(schema: Fixtures.everyType)
        let sample = try store.insert("Sample", [property: .attribute(value)])
        #expect(store.model(sample)?.values == [property: value])
    }

    @Test(arguments: [
        (AttributeValue.double(.nan), "double", "NaN is not a storable number"),
        (.uuid("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"), "uuid",
         "'0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0' is not a UUID in upper case with hyphens"),
        (.uuid("0F1E2D3C4B5A69788796A5B4C3D2E1F0"), "uuid",
         "'0F1E2D3C4B5A69788796A5B4C3D2E1F0' is not a UUID in upper case with hyphens"),
    ])
    func valuesTheStoreCannotKeepAreRefused(
        value: AttributeValue,
        property: String,
        reason: String
    ) throws {
        var store = Store(schema: Fixtures.everyType)
        let refusal = StoreError.invalidValue(entity: "Sample", property: property, reason: reason)
        #expect(throws: refusal) {
            try store.insert("Sample", [property: .attribute(value)])
        }
        #expect(store.models.isEmpty)
    }

    @Test func unknownNamesAreRefused() throws {
        var store = Store(schema: Fixtures.notes())
        #expect(throws: StoreError.unknownEntity("Memo")) { try store.insert("Memo") }
        // With several unknown names, the first in alphabetical order is named.
        #expect(throws: StoreError.unknownProperty(entity: "Note", property: "colour")) {
            try store.insert("Note", ["size": number(1), "colour": text("red")])
        }
        #expect(throws: StoreError.unknownModel(ModelID(99))) {
            try store.update(ModelID(99), ["title": text("A")])
        }
        #expect(throws: StoreError.unknownModel(ModelID(99))) { try store.delete(ModelID(99)) }
        #expect(store.models.isEmpty && store.lastHistoryPosition == 0)
    }

    @Test func anIdentifierInUseIsRefused() throws {
        var store = Store(schema: Fixtures.notes())
        let note = try store.insert("Note")
        let inUse = StoreError.invalidValue(
            entity: "Note", property: "id", reason: "\(note) is already in use"
        )
        #expect(throws: inUse) {
            try store.save(Transaction([.insert(note, entity: "Note", values: [:])]), author: "a")
        }
        // Deleted earlier in the same transaction: still used up.
        #expect(throws: inUse) {
            try store.save(Transaction([
                .delete(note), .insert(note, entity: "Note", values: [:]),
            ]), author: "a")
        }
        #expect(throws: StoreError.invalidValue(
            entity: "Note", property: "id", reason: "m0 is not an identifier"
        )) {
            try store.save(
                Transaction([.insert(ModelID(0), entity: "Note", values: [:])]), author: "a"
            )
        }
    }
}
