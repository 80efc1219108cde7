import CloudSim
import Kernel
import Testing

/// Server data a test injects (issue 42, docs/CLOUDSIM.md *Faults*): a whole upload failed
/// with `batchRequestFailed`, a record stored past a save's checks, an older version served
/// after a newer one.
@Suite struct ServerDataTests {
    @Test func aFailedBatchAppliesNothingAndNamesTheRealErrorFirst() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n0"))
        fixture.cloud.failNextBatch(account: "alice", firstItem: .serverRejectedRequest)
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n1")), newSave(fixture.note("n2"))], deletes: ["n0"])
        #expect(outcome.response.items.map(\.code)
            == [.serverRejectedRequest, .batchRequestFailed, .batchRequestFailed])
        #expect(outcome.response.items[1].error?.message
            == "Record 'n2' will not be saved because of previous error in atomic zone")
        #expect(outcome.notes("records.batch-failed").count == 1)
        #expect(fixture.cloud.record(named: "n1", in: fixture.zone) == nil)
        #expect(fixture.cloud.record(named: "n0", in: fixture.zone) != nil)
        // Used up: the same upload then goes through.
        #expect(fixture.insert(fixture.note("n1"), fixture.note("n2")).map(\.code) == [nil, nil])
    }

    @Test func withoutACodeEveryItemIsBatchRequestFailed() {
        let fixture = CloudFixture()
        fixture.cloud.failNextBatch(account: "alice", firstItem: nil)
        #expect(fixture.insert(fixture.note("n1"), fixture.note("n2")).map(\.code)
            == [.batchRequestFailed, .batchRequestFailed])
    }

    @Test func aServerRecordSkipsTheSchemaAndEntersTheFeed() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        var record = CloudRecord(recordType: "Note", recordName: "bad", zone: fixture.zone)
        record.fields["title"] = .int(12)
        let outcome = fixture.cloud.writeServerRecord(record, now: .zero)
        #expect(outcome?.notes("record.server-written").count == 1)
        let page = fixture.fetchZone(after: nil).page
        #expect(page.map { names($0.records) } == ["n1", "bad"])
        #expect(fixture.serverRecord("bad").fields["title"] == .int(12))
    }

    @Test func anOldVersionComesAfterTheNewOneOnce() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let first = fixture.serverRecord("n1")
        _ = fixture.modify(saves: [fixture.edit("n1", ["title": .string("B")])])
        #expect(fixture.cloud.serveOldVersion(of: "n1", in: fixture.zone))
        let page = fixture.fetchZone(after: nil).page
        let newTag = fixture.serverRecord("n1").changeTag
        #expect(page?.records.map(\.changeTag) == [newTag, first.changeTag])
        #expect(fixture.fetchZone(after: nil).page?.records.count == 1)
        #expect(!fixture.cloud.serveOldVersion(of: "n9", in: fixture.zone))
    }
}
