import CloudSim
import Kernel
import Testing

/// CLOUDKIT.md 6: deleting a record deletes every record whose parent it is, recursively and
/// at once in a custom zone; cascaded deletions leave tombstones but are not in the results.
@Suite struct CascadeTests {
    /// f1 ← n1 ← c1, f1 ← n2; f2 ← n3.
    func tree() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"), fixture.note("f2", type: "Folder"))
        fixture.insert(
            fixture.note("n1", parent: "f1"), fixture.note("n2", parent: "f1"),
            fixture.note("n3", parent: "f2"))
        fixture.insert(fixture.note("c1", parent: "n1", type: "Comment"))
        return fixture
    }

    @Test func deletingAParentDeletesItsDescendants() {
        let fixture = tree()
        let outcome = fixture.modify(deletes: ["f1"], from: fixture.laptop)
        #expect(outcome.response == .recordsModified([.deleted(recordName: "f1")]))
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["f2", "n3"])
        #expect(
            fixture.cloud.tombstones(in: fixture.zone) == [
                RecordDeletion(recordName: "c1", recordType: "Comment"),
                RecordDeletion(recordName: "f1", recordType: "Folder"),
                RecordDeletion(recordName: "n1", recordType: "Note"),
                RecordDeletion(recordName: "n2", recordType: "Note"),
            ])
        #expect(
            outcome.noteKinds == [
                "record.deleted", "record.cascade-deleted", "record.cascade-deleted",
                "record.cascade-deleted",
            ])
        let cascaded = outcome.notes("record.cascade-deleted")
        #expect(cascaded.map { $0.detail("recordName") } == ["n1", "n2", "c1"])
        #expect(cascaded.map { $0.detail("parent") } == ["f1", "f1", "n1"])
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

    @Test func circularParentsEndTheCascade() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("a"), fixture.note("b"))
        var a = fixture.serverRecord("a")
        var b = fixture.serverRecord("b")
        a.parent = "b"
        b.parent = "a"
        fixture.modify(saves: [
            RecordSave(record: a, changedKeys: []), RecordSave(record: b, changedKeys: []),
        ])
        fixture.modify(deletes: ["a"])
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == ["a", "b"])
    }

    @Test func deletingAMissingRecordSucceedsAndChangesNothing() {
        let fixture = tree()
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modify(deletes: ["ghost"])
        #expect(outcome.response == .recordsModified([.deleted(recordName: "ghost")]))
        #expect(outcome.notes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func plainReferencesDoNotCascade() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("target"))
        fixture.insert(fixture.note("holder", ["link": .reference("target")]))
        fixture.modify(deletes: ["target"])
        #expect(fixture.serverRecord("holder").fields["link"] == .reference("target"))
    }
}
