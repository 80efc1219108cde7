import CloudSim
import Kernel
import LocalStore
import SyncContract
@testable import SDS
import Testing

/// The overflow asset's encoding (docs/ENGINE.md) and the placement of values (BIG-2, BIG-4,
/// BIG-5).
@Suite struct OverflowAssetTests {
    @Test func encodesTheDocumentedLayout() {
        let asset = OverflowAsset(
            entries: ["b": .data([1, 2]), "a": .text("hé")], history: ["p@ct1"])
        let expected: [UInt8] = Array("SDSO".utf8) + [1]
            + [0, 1] + [0, 5] + Array("p@ct1".utf8)
            + [0, 0, 0, 2]
            + [0, 1] + Array("a".utf8) + [UInt8(ascii: "s")] + [0, 0, 0, 3] + Array("hé".utf8)
            + [0, 1] + Array("b".utf8) + [UInt8(ascii: "x")] + [0, 0, 0, 2] + [1, 2]
        #expect(asset.encoded == expected)
    }

    @Test func roundTripsAndIsIndependentOfInsertionOrder() {
        var first = OverflowAsset()
        var second = OverflowAsset()
        for key in ["z", "m", "a"] { first.entries[key] = .text(key + "!") }
        for key in ["a", "z", "m"] { second.entries[key] = .text(key + "!") }
        #expect(first.encoded == second.encoded)
        #expect(OverflowAsset.decode(first.encoded) == first)
        let empty = OverflowAsset()
        #expect(OverflowAsset.decode(empty.encoded) == empty)
    }

    @Test func rejectsBytesThatAreNoAsset() {
        #expect(OverflowAsset.decode([]) == nil)
        #expect(OverflowAsset.decode([0]) == nil)
        let bytes = OverflowAsset(entries: ["a": .text("x")]).encoded
        #expect(OverflowAsset.decode(Array(bytes.dropLast())) == nil)
        #expect(OverflowAsset.decode(bytes + [0]) == nil)
        #expect(OverflowAsset.decode(CloudValue.bytes(bytes)) == nil)
    }

    @Test func theHistoryKeepsTheNewestStamps() {
        var asset = OverflowAsset()
        for index in 0..<40 { asset = asset.stamped("d@\(index)") }
        #expect(asset.history.count == OverflowAsset.historyLimit)
        #expect(asset.history.first == "d@8" && asset.history.last == "d@39")
    }

    @Test func expandingPutsEntriesInFieldsAndAFieldWins() {
        let asset = OverflowAsset(entries: ["body": .text("large"), "title": .text("old")])
        let record = CloudRecord(
            recordType: "Note", recordName: "n1", zone: ZoneID(owner: "alice", name: "Z"),
            fields: ["title": .string("new"), SDSEngine.overflowField: .asset(asset.encoded)])
        let expanded = RecordMapping.expandingOverflow(record)
        #expect(expanded.fields == ["title": .string("new"), "body": .string("large")])
        #expect(RecordMapping.attributeValue(of: "body", type: .string, in: record)
            == .string("large"))
        #expect(RecordMapping.attributeValue(of: "title", type: .string, in: record)
            == .string("new"))
    }
}

@Suite struct OverflowPlanTests {
    static let kilobyte = 1024

    static func text(_ kilobytes: Int) -> CloudValue {
        .string(String(repeating: "a", count: kilobytes * kilobyte))
    }

    static func plan(
        _ changed: [String: CloudValue],
        fields: [String: CloudValue] = [:],
        assetKeys: Set<String> = [],
        cleared: [String] = [],
        movable: Set<String> = ["a", "b", "c", "d", "e", "body"],
        identity: Set<String> = []
    ) -> OverflowPlan {
        OverflowPlan.make(
            fields: fields, assetKeys: assetKeys, hadAsset: !assetKeys.isEmpty, changed: changed,
            changedKeys: changed.keys.sorted() + cleared, movable: movable, identity: identity)
    }

    @Test func aValueOf256KBMovesAndOneOf255KBStays() {
        #expect(Self.plan(["body": Self.text(255)]).movedIn.isEmpty)
        let plan = Self.plan(["body": Self.text(256)])
        #expect(plan.movedIn == [OverflowPlan.Move(key: "body", reason: .large)])
        #expect(plan.involvesAsset && plan.hasAsset)
    }

    @Test func theLargestChangedValuesMoveUntilTheRecordFits() {
        let plan = Self.plan([
            "a": Self.text(200), "b": Self.text(250), "c": Self.text(240), "d": Self.text(230),
            "e": Self.text(220),
        ])
        #expect(plan.movedInKeys == ["b"])
        #expect(!plan.isTooLarge)
        let equal = Self.plan([
            "a": Self.text(250), "b": Self.text(250), "c": Self.text(250), "d": Self.text(250),
            "e": Self.text(250),
        ])
        #expect(equal.movedInKeys == ["a"])
    }

    @Test func unchangedValuesStayWhereTheyAre() {
        let plan = Self.plan(
            ["e": Self.text(200)],
            fields: ["a": Self.text(250), "b": Self.text(250), "c": Self.text(250),
                     "d": Self.text(250)],
            assetKeys: ["x"])
        #expect(plan.movedIn == [OverflowPlan.Move(key: "e", reason: .doesNotFit)])
        #expect(plan.movedOut.isEmpty)
    }

    @Test func aChangedValueThatFitsLeavesTheAsset() {
        let plan = Self.plan(["body": .string("short")], assetKeys: ["body", "notes"])
        #expect(plan.movedIn.isEmpty && plan.movedOut == ["body"])
        #expect(plan.hasAsset)
        let cleared = Self.plan([:], assetKeys: ["body"], cleared: ["body"])
        #expect(cleared.movedOut == ["body"] && cleared.hasAsset, "the field stays (BIG-5)")
    }

    @Test func identityValuesNeverMove() {
        let plan = Self.plan(
            ["feedLink": Self.text(1100)], movable: [], identity: ["feedLink"])
        #expect(plan.movedIn.isEmpty && plan.identityKept == ["feedLink"] && plan.isTooLarge)
    }
}

/// `localPlan` answers small records without building the plan's maps; what it answers must
/// be what `OverflowPlan.make` decides from the record as this device knows it.
@Suite struct LocalPlanShortcutTests {
    let schema = Schema(entities: [
        EntityDescription(
            name: "Note",
            attributes: [AttributeDescription(name: "title", type: .string, defaultValue: .string("")),
                         AttributeDescription(name: "body", type: .string, isOptional: true),
                         AttributeDescription(name: "pinned", type: .bool, defaultValue: .bool(false))],
            relationships: [RelationshipDescription(name: "folder", destination: "Folder", isToMany: false)]),
        EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string, defaultValue: .string(""))]),
    ])

    /// The plan as `localPlan` made it before the shortcut, for a record without an asset.
    func fullPlan(_ save: RecordSave, model: Model, entity: SDSEntity, context: SDSContext) -> OverflowPlan {
        var fields: [String: CloudValue] = [:]
        for attribute in entity.synchronizedAttributes {
            guard let value = model.values[attribute.name] else { continue }
            fields[attribute.name] = RecordMapping.cloudValue(value, asset: attribute.isAsset)
        }
        for relationship in entity.synchronizedToOneRelationships {
            guard let target = model.toOne[relationship.name],
                  let name = context.syncData.recordName(of: target) else { continue }
            fields[relationship.name] = RecordMapping.reference(name, relationship)
        }
        var changed: [String: CloudValue] = [:]
        for key in save.changedKeys { changed[key] = save.record.fields[key] }
        let movable = entity.synchronizedAttributes.filter { SDSEngine.isMovable($0, of: entity) }
        return OverflowPlan.make(
            fields: fields, assetKeys: [], hadAsset: false, changed: changed,
            changedKeys: save.changedKeys, movable: Set(movable.map(\.name)),
            identity: Set(entity.identity))
    }

    @Test("small, large, too large and cleared records get the plan OverflowPlan.make gives",
          arguments: [
            (0, 10, ["title"]), (10, 0, ["body"]), (262_144, 5, ["body"]), (262_143, 5, ["body"]),
            (900_000, 200_000, ["title"]), (900_000, 200_000, ["body", "title"]),
            (1_048_000, 0, ["pinned"]), (-1, 3, ["body", "folder", "title"]), (5, 5, ["folder"]),
          ] as [(Int, Int, [String])])
    func shortcutMatchesTheFullPlan(bodySize: Int, titleSize: Int, keys: [String]) throws {
        let engine = SDSEngine(schema: schema)
        var store = Store(schema: schema)
        let folder = store.makeModelID()
        let note = store.makeModelID()
        var transaction = Transaction()
        transaction.append(.insert(folder, entity: "Folder", values: [:]))
        var values: [String: PropertyValue] = [
            "title": .attribute(.string(String(repeating: "t", count: titleSize))),
            "folder": .relationship(folder),
        ]
        if bodySize >= 0 { values["body"] = .attribute(.string(String(repeating: "b", count: bodySize))) }
        transaction.append(.insert(note, entity: "Note", values: values))
        try store.save(transaction, author: "app")
        var data = SDSSyncData()
        data.bind(folder, to: "folder-record")
        data.bind(note, to: "note-record")
        data.setChangeTag("t1", for: "note-record")
        var pending = PendingChange()
        for (version, key) in keys.enumerated() { pending.keys[key] = Int64(version + 1) }
        data.pending[note] = pending
        let context = SDSContext(
            now: .zero, device: "phone", account: "alice", accountStatus: .available,
            isOnline: true, store: store, syncData: data, names: Xoshiro256StarStar(seed: 1))
        let model = try #require(store.model(note))
        let entity = SDSEntity(try #require(schema.entity(named: "Note")))
        let save = engine.plainSave(
            of: note, model: model, entity: entity, name: "note-record", pending: pending,
            changeTag: data.changeTag(of: "note-record"), context: context)
        #expect(engine.localPlan(save, model: model, pending: pending, entity: entity, context: context)
            == fullPlan(save, model: model, entity: entity, context: context))
    }

    @Test("a value's size without its field is the size of the field it becomes")
    func sizeWithoutTheField() {
        let values: [AttributeValue] = [
            .string("héllo"), .string(""), .int(7), .double(1.5), .bool(true),
            .date(millisecondsSince1970: 42), .uuid("0A0B0C0D-0000-0000-0000-000000000001"),
            .url("https://example.com/ä"), .data([1, 2, 3]), .data([]),
        ]
        for value in values {
            for asset in [false, true] {
                #expect(RecordMapping.recordSizeBytes(of: value, asset: asset)
                        == RecordMapping.cloudValue(value, asset: asset).recordSizeBytes,
                        "\(value) asset: \(asset)")
            }
        }
    }
}
