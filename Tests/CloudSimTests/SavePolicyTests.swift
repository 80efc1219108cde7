import CloudSim
import Kernel
import Testing

/// [CKModifyRecordsOperation.RecordSavePolicy] (docs/CLOUDSIM.md rows 18-20): the table of save policies and each consequence listed under it.
@Suite struct SavePolicyTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var policy: SavePolicy
        /// Another device saved the record after the phone last saw it.
        var stale: Bool
        /// The expected server fields, or nil when the save must fail `serverRecordChanged`.
        var expected: [String: String]?

        var testDescription: String { "\(policy) \(stale ? "stale" : "fresh")" }
    }

    /// The phone edits `a` of a record whose copy it holds as {a, b} (it never fetched `s`).
    /// When stale, the laptop changed `b` to "b1" meanwhile.
    static let rows: [Row] = [
        Row(
            policy: .ifServerRecordUnchanged, stale: false,
            expected: ["a": "a-phone", "b": "b0", "s": "s0"]),
        Row(policy: .ifServerRecordUnchanged, stale: true, expected: nil),
        Row(policy: .changedKeys, stale: false, expected: ["a": "a-phone", "b": "b0", "s": "s0"]),
        Row(policy: .changedKeys, stale: true, expected: ["a": "a-phone", "b": "b1", "s": "s0"]),
        Row(policy: .allKeys, stale: false, expected: ["a": "a-phone", "b": "b0", "s": "s0"]),
        Row(policy: .allKeys, stale: true, expected: ["a": "a-phone", "b": "b0", "s": "s0"]),
    ]

    @Test(arguments: rows)
    func policyTable(_ row: Row) {
        let fixture = CloudFixture()
        let created = fixture.insert(
            fixture.note("n1", ["a": .string("a0"), "b": .string("b0"), "s": .string("s0")]),
            from: fixture.laptop)
        guard let base = created.first?.savedRecord else {
            Issue.record("insert failed")
            return
        }
        if row.stale {
            fixture.modify(saves: [fixture.edit("n1", ["b": .string("b1")])], from: fixture.laptop)
        }
        var phoneCopy = base
        phoneCopy.fields = ["a": .string("a-phone"), "b": .string("b0")]
        let result = fixture.modify(
            saves: [RecordSave(record: phoneCopy, changedKeys: ["a"])], policy: row.policy
        ).response.items
        guard let expected = row.expected else {
            #expect(result.first?.code == .serverRecordChanged)
            #expect(result.first?.error?.message == "client oplock error updating record")
            return
        }
        let server = fixture.serverRecord("n1")
        #expect(result.first?.savedRecord == server)
        #expect(server.fields.dictionary == expected.mapValues { CloudValue.string($0) })
    }

    @Test(arguments: [SavePolicy.ifServerRecordUnchanged, .changedKeys, .allKeys])
    func aKeyIsClearedOnlyBySendingItChangedToNil(_ policy: SavePolicy) {
        let fixture = CloudFixture()
        fixture.insert(
            fixture.note("n1", ["a": .string("a0"), "b": .string("b0"), "c": .string("c0")]))
        var copy = fixture.serverRecord("n1")
        copy.fields = ["a": .string("a1")]  // b and c absent locally; only b is sent as changed
        fixture.modify(saves: [RecordSave(record: copy, changedKeys: ["a", "b"])], policy: policy)
        #expect(fixture.serverRecord("n1").fields == ["a": .string("a1"), "c": .string("c0")])
    }

    @Test func insertCollisionUnderIfServerRecordUnchangedCarriesTheServerRecord() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("laptop")]), from: fixture.laptop)
        let before = fixture.cloud.snapshot()
        let result = fixture.insert(fixture.note("n1", ["title": .string("phone")]))
        #expect(result.first?.code == .serverRecordChanged)
        #expect(result.first?.error?.message == "record to insert already exists")
        #expect(result.first?.error?.serverRecord == fixture.serverRecord("n1"))
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test(arguments: [SavePolicy.changedKeys, .allKeys])
    func insertCollisionUnderOtherPoliciesOverwritesTheSentKeys(_ policy: SavePolicy) {
        let fixture = CloudFixture()
        fixture.insert(
            fixture.note("n1", ["title": .string("laptop"), "body": .string("b")]),
            from: fixture.laptop)
        let result = fixture.insert(fixture.note("n1", ["title": .string("phone")]), policy: policy)
        #expect(result.first?.savedRecord != nil)
        #expect(
            fixture.serverRecord("n1").fields == ["title": .string("phone"), "body": .string("b")])
    }

    @Test func aTagForARecordThatIsGoneIsUnknownItem() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        let copy = fixture.serverRecord("n1")
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        let result = fixture.modify(saves: [
            fixture.edit("n1", ["title": .string("y")], basedOn: copy)
        ])
        #expect(result.response.items.first?.code == .unknownItem)
        #expect(fixture.cloud.record(named: "n1", in: fixture.zone) == nil)
        #expect(result.notes.isEmpty)
    }

    @Test func changedKeysRecreatesADeletedRecordWithOnlyTheEditedKeys() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x"), "body": .string("long text")]))
        let copy = fixture.serverRecord("n1")
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        let outcome = fixture.modify(
            saves: [fixture.edit("n1", ["title": .string("y")], basedOn: copy)],
            policy: .changedKeys)
        #expect(fixture.serverRecord("n1").fields == ["title": .string("y")])
        let recreated = outcome.notes("record.recreated")
        #expect(recreated.count == 1)
        // Neutral (docs/CLOUDSIM.md *Notes*): the cloud records THAT the save re-created the
        // record and which keys it wrote; the engine profile names the rule (LIM-1 for sds).
        #expect(recreated.first?.rules == [])
        #expect(recreated.first?.detail("policy") == "changedKeys")
        #expect(recreated.first?.value(of: "writtenKeys") == "title")
        #expect(recreated.first?.detail("recordName") == "n1")
        #expect(recreated.first?.detail("device") == "phone")
        #expect(fixture.cloud.tombstones(in: fixture.zone).isEmpty)
    }

    @Test func allKeysRecreatesADeletedRecordWithEveryKeyAndNoLimitation() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x"), "body": .string("b")]))
        let copy = fixture.serverRecord("n1")
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        let outcome = fixture.modify(
            saves: [fixture.edit("n1", ["title": .string("y")], basedOn: copy)], policy: .allKeys)
        #expect(fixture.serverRecord("n1").fields == ["title": .string("y"), "body": .string("b")])
        #expect(outcome.notes("record.recreated").map(\.rules) == [[]])
        #expect(outcome.notes("record.recreated").first?.value(of: "writtenKeys") == "body,title")
    }

    @Test func aNewRecordWithoutTagIsNotARecreation() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        fixture.modify(deletes: ["n1"])
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n1", ["title": .string("z")]))], policy: .changedKeys)
        #expect(outcome.notes("record.recreated").isEmpty)
        // Created as new, with the neutral note that it was created over a tombstone.
        #expect(outcome.noteKinds == ["record.created-over-tombstone", "record.saved"])
        let note = outcome.notes("record.created-over-tombstone").first
        #expect(note?.rules == [])
        #expect(note?.value(of: "device") == "phone")
        #expect(note?.value(of: "policy") == "changedKeys")
    }

    @Test func aNewRecordOfANameNeverDeletedHasNoTombstoneNote() {
        let fixture = CloudFixture()
        let outcome = fixture.modify(saves: [newSave(fixture.note("n1", ["title": .string("z")]))])
        #expect(outcome.noteKinds == ["record.saved"])
    }

    @Test func onlyChangedKeysAreWrittenForANewRecordUnderIfServerRecordUnchanged() {
        let fixture = CloudFixture()
        let record = fixture.note("n1", ["title": .string("x"), "draft": .string("not sent")])
        fixture.modify(saves: [RecordSave(record: record, changedKeys: ["title"])])
        #expect(fixture.serverRecord("n1").fields == ["title": .string("x")])
    }

    @Test func theRecordTypeOfAnExistingRecordCannotChange() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        var copy = fixture.serverRecord("n1")
        copy.recordType = "Folder"
        let result = fixture.modify(saves: [RecordSave(record: copy, changedKeys: [])]).response
            .items
        #expect(result.first?.code == .invalidArguments)
        #expect(fixture.serverRecord("n1").recordType == "Note")
    }

    @Test func aSaveWritesTheParentFromTheClient() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"), fixture.note("f2", type: "Folder"))
        fixture.insert(fixture.note("n1", ["title": .string("x")], parent: "f1"))
        var copy = fixture.serverRecord("n1")
        copy.parent = "f2"
        fixture.modify(saves: [RecordSave(record: copy, changedKeys: [])])
        #expect(fixture.serverRecord("n1").parent == "f2")
        copy = fixture.serverRecord("n1")
        copy.parent = nil
        fixture.modify(saves: [RecordSave(record: copy, changedKeys: [])])
        #expect(fixture.serverRecord("n1").parent == nil)
    }

    @Test func theServerStampsSystemFieldsOnEverySave() {
        let fixture = CloudFixture()
        let createdAt = fixture.now
        let first = fixture.insert(
            fixture.note("n1", ["title": .string("x")]), from: fixture.laptop)
        let created = fixture.serverRecord("n1")
        #expect(first.first?.savedRecord == created)
        #expect(created.creationTime == createdAt)
        #expect(created.modificationTime == createdAt)
        #expect(created.lastModifiedBy == "laptop")
        let editedAt = fixture.now
        fixture.modify(saves: [fixture.edit("n1", ["title": .string("y")])])
        let edited = fixture.serverRecord("n1")
        #expect(edited.changeTag != created.changeTag)
        #expect(edited.creationTime == createdAt)
        #expect(edited.modificationTime == editedAt)
        #expect(edited.lastModifiedBy == "phone")
    }

    @Test func everySaveGetsANewChangeTagEvenWithoutChangedKeys() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["title": .string("x")]))
        var tags: [String?] = [fixture.serverRecord("n1").changeTag]
        for _ in 0..<3 {
            fixture.modify(saves: [RecordSave(record: fixture.serverRecord("n1"), changedKeys: [])])
            tags.append(fixture.serverRecord("n1").changeTag)
        }
        #expect(Set(tags).count == 4)
        #expect(tags.allSatisfy { $0?.hasPrefix("ct") == true })
    }

    @Test func savedNotesNameTheChangedKeysAndPolicy() {
        let fixture = CloudFixture()
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n1", ["title": .string("x"), "body": .string("y")]))],
            policy: .changedKeys)
        let saved = outcome.notes("record.saved")
        #expect(saved.count == 1)
        #expect(saved.first?.detail("recordName") == "n1")
        #expect(saved.first?.detail("changedKeys") == "body,title")
        #expect(saved.first?.detail("policy") == "changedKeys")
        #expect(saved.first?.detail("device") == "phone")
    }
}
