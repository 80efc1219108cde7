import CloudSim
import Kernel
import Testing

/// Apple, CKError `serverRecordChanged` and its userInfo keys: the error carries the server
/// record (`CKRecordChangedErrorServerRecordKey`), the record the client tried to save
/// (`...ClientRecordKey`) and the ancestor record its edit started from
/// (`...AncestorRecordKey`), which "may have no keys" for a brand-new record.
@Suite struct ConflictRecordsTests {
    @Test func aStaleTagCarriesServerClientAndAncestor() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("v1")]))
        let base = fixture.serverRecord("n1")
        var laptopEdit = base
        laptopEdit.fields["title"] = .string("laptop")
        fixture.modify(saves: [RecordSave(record: laptopEdit, changedKeys: ["title"])])
        var phoneEdit = base
        phoneEdit.fields["title"] = .string("phone")
        let result = fixture.modify(saves: [RecordSave(record: phoneEdit, changedKeys: ["title"])])
            .response.items.first
        let error = result?.error
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.serverRecord?.fields["title"] == .string("laptop"))
        #expect(error?.clientRecord == phoneEdit)
        #expect(error?.ancestorRecord == base)
        #expect(error?.ancestorRecord?.changeTag == base.changeTag)
    }

    @Test func aNewRecordsCollisionHasAnAncestorWithoutKeys() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("first")]))
        let again = fixture.note("n1", ["title": .string("second")])
        let error = fixture.insert(again).first?.error
        #expect(error?.message == "record to insert already exists")
        #expect(error?.clientRecord == again)
        #expect(error?.ancestorRecord?.fields.isEmpty == true)
        #expect(error?.ancestorRecord?.recordName == "n1")
        #expect(error?.ancestorRecord?.changeTag == nil)
        #expect(error?.serverRecord?.fields["title"] == .string("first"))
    }

    @Test func aTagOfADeletedLifeHasNoKnownAncestor() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let old = fixture.serverRecord("n1")
        fixture.modify(deletes: ["n1"])
        fixture.insert(fixture.note("n1"))
        let error = fixture.modify(saves: [RecordSave(record: old, changedKeys: [])])
            .response.items.first?.error
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.ancestorRecord == nil)
        #expect(error?.clientRecord == old)
    }

    @Test func theAncestorsAssetsAreNotSentLikeTheServerRecords() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["photo": .asset([1, 2, 3])]))
        let base = fixture.serverRecord("n1")
        fixture.modify(saves: [RecordSave(record: base, changedKeys: ["photo"])])
        let error = fixture.modify(saves: [RecordSave(record: base, changedKeys: ["photo"])])
            .response.items.first?.error
        #expect(error?.ancestorRecord?.fields["photo"] == .asset([]))
        #expect(error?.clientRecord?.fields["photo"] == .asset([1, 2, 3]))
    }
}
