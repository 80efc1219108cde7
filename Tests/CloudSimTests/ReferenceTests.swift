import CloudSim
import Kernel
import Testing

/// [CKRecord] `parent` (docs/CLOUDSIM.md row 34): a save's parent must exist on the server, or be saved successfully by the
/// same request, else `referenceViolation`.
@Suite struct ReferenceTests {
    @Test func aParentThatDoesNotExistIsAReferenceViolation() {
        let fixture = CloudFixture()
        let results = fixture.insert(fixture.note("n1", parent: "missing"))
        #expect(
            results.first?.error
                == CloudError(
                    .referenceViolation, message: "Parent 'missing' of record 'n1' was not found"))
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
    }

    @Test func aParentSavedInTheSameRequestCountsInAnyOrder() {
        let fixture = CloudFixture()
        let results = fixture.insert(
            fixture.note("n1", parent: "f1"), fixture.note("f1", type: "Folder"))
        #expect(results.map(\.code) == [nil, nil])
        #expect(fixture.serverRecord("n1").parent == "f1")
    }

    @Test func aParentWhoseSaveFailsFailsItsNewChildren() {
        let fixture = CloudFixture()
        fixture.cloud.reject(recordName: "f1", account: "alice", with: .serverRejectedRequest)
        let results = fixture.insert(
            fixture.note("c1", parent: "n1"), fixture.note("n1", parent: "f1"),
            fixture.note("f1", type: "Folder"))
        #expect(
            results.map(\.code) == [
                .referenceViolation, .referenceViolation, .serverRejectedRequest,
            ])
    }

    @Test func anExistingParentWhoseUpdateFailsStillCounts() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"))
        let staleFolder = fixture.serverRecord("f1")
        fixture.modify(saves: [fixture.edit("f1", ["name": .string("x")])], from: fixture.laptop)
        let results = fixture.modify(saves: [
            fixture.edit("f1", ["name": .string("y")], basedOn: staleFolder),
            newSave(fixture.note("n1", parent: "f1")),
        ]).response.items
        #expect(results.map(\.code) == [.serverRecordChanged, nil])
    }

    @Test func aParentDeletedByTheSameRequestIsAReferenceViolation() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"))
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n1", parent: "f1"))], deletes: ["f1"])
        #expect(outcome.response.items.map(\.code) == [.referenceViolation, nil])
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
    }

    @Test func aRecordMayBeItsOwnParent() {
        let fixture = CloudFixture()
        #expect(fixture.insert(fixture.note("n1", parent: "n1")).map(\.code) == [nil])
    }

    @Test func aParentDeletedByAnotherDeviceFailsAMove() {
        // LIM-3's first half as the cloud sees it: the move arrives after the folder is gone.
        let fixture = CloudFixture()
        fixture.insert(fixture.note("f1", type: "Folder"), fixture.note("n1"))
        fixture.modify(deletes: ["f1"], from: fixture.laptop)
        var moved = fixture.serverRecord("n1")
        moved.parent = "f1"
        let results = fixture.modify(saves: [RecordSave(record: moved, changedKeys: [])]).response
            .items
        #expect(results.map(\.code) == [.referenceViolation])
        #expect(fixture.serverRecord("n1").parent == nil)
    }
}
