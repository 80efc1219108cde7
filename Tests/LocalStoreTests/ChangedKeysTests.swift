@testable import LocalStore
import Testing

/// `Model.changedKeys(since:)` lists each property whose value differs, sorted, once.
@Suite struct ChangedKeysTests {
    @Test func everyKindOfDifferenceIsListedOnceAndSorted() {
        let before = Model(
            id: ModelID(1), entity: "Note",
            values: ["title": .string("a"), "body": .string("b"), "same": .int(1)],
            toOne: ["folder": ModelID(7), "kept": ModelID(8)],
            toMany: ["tags": [ModelID(2)], "still": [ModelID(3)]])
        var after = before
        after.values["title"] = .string("A")      // changed
        after.values["body"] = nil                 // cleared
        after.values["pinned"] = .bool(true)       // set
        after.toOne["folder"] = nil                // unlinked
        after.toOne["owner"] = ModelID(9)          // linked
        after.toMany["tags"] = [ModelID(2), ModelID(4)]
        #expect(after.changedKeys(since: before) == ["body", "folder", "owner", "pinned", "tags", "title"])
        #expect(before.changedKeys(since: after) == ["body", "folder", "owner", "pinned", "tags", "title"])
        #expect(after.changedKeys(since: after).isEmpty)
    }

    @Test func aNameInTwoMapsIsListedOnce() {
        let before = Model(id: ModelID(1), entity: "E", values: ["x": .int(1)], toOne: ["x": ModelID(2)])
        var after = before
        after.values["x"] = .int(2)
        after.toOne["x"] = ModelID(3)
        #expect(after.changedKeys(since: before) == ["x"])
    }
}

/// The synchronized properties are kept with the entity and follow every change of it.
@Suite struct SynchronizedPropertiesTests {
    @Test func theyFollowChangesOfTheEntity() {
        var entity = EntityDescription(
            name: "Note",
            attributes: [AttributeDescription(name: "title", type: .string),
                         AttributeDescription(name: "secret", type: .string)],
            relationships: [RelationshipDescription(name: "folder", destination: "Folder", isToMany: false),
                            RelationshipDescription(name: "tags", destination: "Tag", isToMany: true)],
            sync: .except(["secret"]))
        #expect(entity.synchronizedAttributes.map(\.name) == ["title"])
        #expect(entity.synchronizedToOneRelationships.map(\.name) == ["folder"])
        entity.attributes.append(AttributeDescription(name: "body", type: .string))
        #expect(entity.synchronizedAttributes.map(\.name) == ["title", "body"])
        entity.sync = .only(["secret", "tags"])
        #expect(entity.synchronizedAttributes.map(\.name) == ["secret"])
        #expect(entity.synchronizedToOneRelationships.isEmpty)
        entity.sync = .all
        entity.relationships.removeAll()
        #expect(entity.synchronizedToOneRelationships.isEmpty)
        entity.sync = .none
        #expect(entity.synchronizedAttributes.isEmpty)
    }
}
