import CloudSim
import Kernel
import Testing

/// Apple, CKRecord.ReferenceAction: `.none` "has no cascading behavior" — deleting a parent
/// record doesn't delete that record's children and the reference keeps the deleted ID;
/// `.deleteSelf` "cascades deletions": CloudKit deletes every record holding such a reference
/// to the deleted record, further deletions can follow, immediately in a custom zone. A
/// record's `parent` reference has the action `.none`.
@Suite struct ReferenceActionTests {
    /// f1 ← n1 ← c1, f1 ← n2; f2 ← n3, every arrow a `.deleteSelf` field `owner` (and the
    /// same record as `parent`).
    func tree() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"), fixture.note("f2", type: "Folder"))
        fixture.insert(
            owned("n1", by: "f1", fixture), owned("n2", by: "f1", fixture),
            owned("n3", by: "f2", fixture))
        fixture.insert(owned("c1", by: "n1", fixture, type: "Comment"))
        return fixture
    }

    func owned(
        _ name: String, by target: String, _ fixture: CloudFixture, type: String = "Note"
    ) -> CloudRecord {
        fixture.note(
            name, ["owner": .reference(target, action: .deleteSelf)], parent: target, type: type)
    }

    @Test func deletingAParentDoesNotDeleteItsChildren() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"))
        fixture.insert(fixture.note("n1", parent: "f1"), fixture.note("n2", parent: "f1"))
        let outcome = fixture.modify(deletes: ["f1"], from: fixture.laptop)
        #expect(outcome.response == .recordsModified([.deleted(recordName: "f1")]))
        #expect(outcome.noteKinds == ["record.deleted"])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["n1", "n2"])
        // The child keeps the deleted parent's name.
        #expect(fixture.serverRecord("n1").parent == "f1")
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == ["f1"])
    }

    @Test func aPlainReferenceKeepsTheDeletedTargetsName() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("target"))
        fixture.insert(fixture.note("holder", ["link": .reference("target")]))
        fixture.modify(deletes: ["target"])
        #expect(fixture.serverRecord("holder").fields["link"] == .reference("target"))
        #expect(fixture.serverRecord("holder").fields["link"] == .reference("target", action: .none))
    }

    @Test func deletingTheTargetOfADeleteSelfReferenceDeletesTheHolderRecursively() {
        let fixture = tree()
        let outcome = fixture.modify(deletes: ["f1"], from: fixture.laptop)
        // Cascaded deletions are not in the results, only the deletion asked for.
        #expect(outcome.response == .recordsModified([.deleted(recordName: "f1")]))
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["f2", "n3"])
        #expect(
            fixture.cloud.tombstones(in: fixture.zone) == [
                RecordDeletion(recordName: "c1", recordType: "Comment"),
                RecordDeletion(recordName: "f1", recordType: "Folder"),
                RecordDeletion(recordName: "n1", recordType: "Note"),
                RecordDeletion(recordName: "n2", recordType: "Note"),
            ])
        let cascaded = outcome.notes("record.cascade-deleted")
        #expect(cascaded.map { $0.detail("recordName") } == ["n1", "n2", "c1"])
        #expect(cascaded.map { $0.detail("target") } == ["f1", "f1", "n1"])
        #expect(cascaded.map { $0.detail("field") } == ["owner", "owner", "owner"])
    }

    @Test func cascadedDeletionsReachOtherDevicesThroughTheFeed() {
        let fixture = tree()
        guard let token = fixture.fetchZone(after: nil, from: fixture.tablet).page?.token else {
            Issue.record("no token")
            return
        }
        fixture.modify(deletes: ["f1"], from: fixture.laptop)
        let page = fixture.fetchZone(after: token, from: fixture.tablet).page
        #expect(page.map { names($0.deletions) } == ["f1", "n1", "n2", "c1"])
        #expect(page?.deletions.last?.recordType == "Comment")
    }

    @Test func aRecordDeletedExplicitlyInTheSameRequestIsNotCascaded() {
        let fixture = tree()
        let outcome = fixture.modify(deletes: ["f1", "n1"])
        #expect(outcome.response.items.allSatisfy { $0.isDeleted })
        #expect(outcome.notes("record.deleted").map { $0.detail("recordName") } == ["f1", "n1"])
        #expect(
            outcome.notes("record.cascade-deleted").map { $0.detail("recordName") } == ["n2", "c1"])
    }

    @Test func aRecordWithSeveralOwnersDiesWithAnyOfThem() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("a"), fixture.note("b"))
        fixture.insert(
            fixture.note(
                "both",
                [
                    "first": .reference("a", action: .deleteSelf),
                    "others": .list([.reference("b", action: .deleteSelf)]),
                ]))
        fixture.modify(deletes: ["b"])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["a"])
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == ["b", "both"])
    }

    @Test func circularOwningReferencesEndTheCascade() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("a"), fixture.note("b"))
        var a = fixture.serverRecord("a")
        var b = fixture.serverRecord("b")
        a.fields["owner"] = .reference("b", action: .deleteSelf)
        b.fields["owner"] = .reference("a", action: .deleteSelf)
        fixture.modify(saves: [
            RecordSave(record: a, changedKeys: ["owner"]),
            RecordSave(record: b, changedKeys: ["owner"]),
        ])
        fixture.modify(deletes: ["a"])
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == ["a", "b"])
    }

    @Test func aSaveThatClearsTheOwningReferenceEndsTheOwnership() {
        let fixture = tree()
        var n2 = fixture.serverRecord("n2")
        n2.fields["owner"] = .reference("f2", action: .deleteSelf)
        n2.parent = "f2"
        fixture.modify(saves: [RecordSave(record: n2, changedKeys: ["owner"])])
        fixture.modify(deletes: ["f1"])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["f2", "n2", "n3"])
    }

    @Test func theActionIsPartOfTheValueAndOfTheSnapshot() {
        let fixture = tree()
        #expect(fixture.serverRecord("n1").fields["owner"] != .reference("f1"))
        #expect(fixture.cloud.snapshot().description.contains("owner=ref(f1,deleteSelf)"))
        #expect(ReferenceAction.none.rawValue == 0 && ReferenceAction.deleteSelf.rawValue == 1)
    }

    @Test func deletingAMissingRecordSucceedsAndChangesNothing() {
        let fixture = tree()
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modify(deletes: ["ghost"])
        #expect(outcome.response == .recordsModified([.deleted(recordName: "ghost")]))
        #expect(outcome.notes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }
}
