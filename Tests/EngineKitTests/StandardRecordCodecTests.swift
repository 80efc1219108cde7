import CloudSim
import EngineKit
import LocalStore
import SyncContract
import Testing

@Suite struct StandardRecordCodecTests {
    let zone = ZoneID(owner: "alice", name: "Zone")

    @Test func plainLayoutIsEntityAndProperty() {
        let codec = StandardRecordCodec(zoneNames: ["Notes"])
        #expect(codec.zoneNames == ["Notes"])
        #expect(codec.recordType(ofEntity: "Note") == "Note")
        #expect(codec.entity(ofRecordType: "Note") == "Note")
        #expect(codec.holdsRecords(inZoneNamed: "Notes") && !codec.holdsRecords(inZoneNamed: "X"))
        let record = CloudRecord(recordType: "Note", recordName: "n", zone: zone,
            fields: ["title": .string("Hi"), "done": .int(1), "id": .string("ab-c")],
            parent: "p")
        #expect(codec.value(of: "title", type: .string, in: record) == .string("Hi"))
        #expect(codec.value(of: "done", type: .bool, in: record) == .bool(true))
        #expect(codec.value(of: "id", type: .uuid, in: record) == .uuid("AB-C"))
        #expect(codec.value(of: "title", type: .int, in: record) == nil)
        #expect(codec.reference(of: "folder", in: record) == nil)
    }

    @Test func prefixedLayoutWithAssetsAndNameFields() {
        let codec = StandardRecordCodec(zoneNames: ["Z"], prefix: "CD_", assetSuffix: "_ckAsset",
            references: .nameFields)
        #expect(codec.recordType(ofEntity: "Note") == "CD_Note")
        #expect(codec.entity(ofRecordType: "CD_Note") == "Note")
        #expect(codec.entity(ofRecordType: "Note") == nil)
        #expect(codec.assetField("body") == "CD_body_ckAsset")
        let record = CloudRecord(recordType: "CD_Note", recordName: "n", zone: zone,
            fields: ["CD_title": .string("Hi"), "CD_body_ckAsset": .asset(Array("long".utf8)),
                     "CD_folder": .string("f1")])
        #expect(codec.value(of: "title", type: .string, in: record) == .string("Hi"))
        #expect(codec.value(of: "body", type: .string, in: record) == .string("long"))
        #expect(codec.value(of: "body", type: .data, in: record) == .data(Array("long".utf8)))
        #expect(codec.value(of: "body", type: .int, in: record) == nil)
        #expect(codec.reference(of: "folder", in: record) == "f1")
    }

    @Test func referencesAsParentOrReferenceFields() {
        let record = CloudRecord(recordType: "Note", recordName: "n", zone: zone,
            fields: ["folder": .reference("f1")], parent: "p")
        let byParent = StandardRecordCodec(zoneNames: ["Z"], references: .recordParent)
        let byField = StandardRecordCodec(zoneNames: ["Z"], references: .referenceFields)
        #expect(byParent.reference(of: "folder", in: record) == "p")
        #expect(byField.reference(of: "folder", in: record) == "f1")
        #expect(byField.reference(of: "other", in: record) == nil)
    }

    struct Wrapped: StandardCodecWrapper {
        var standard: StandardRecordCodec { StandardRecordCodec(zoneNames: ["Main"]) }
        func holdsRecords(inZoneNamed name: String) -> Bool { name.hasPrefix("M") }
    }

    @Test func aWrapperGetsTheLayoutAndKeepsItsOwnZones() {
        let codec = Wrapped()
        #expect(codec.zoneNames == ["Main"])
        #expect(codec.recordType(ofEntity: "Note") == "Note")
        #expect(codec.holdsRecords(inZoneNamed: "More"))
        #expect(codec.sharedZoneName(ofRoot: "r") == nil)
    }
}
