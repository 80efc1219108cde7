import CloudSim
import Kernel
import Testing

/// Deleting a record that does not exist (docs/CLOUDSIM.md, *Deleting a record that does not
/// exist*): Apple leaves open whether it succeeds; CloudSim answers success by default, and a
/// per-item `unknownItem` with `missingDeletes = .unknownItem` (`cloud missing-deletes
/// unknown-item`, issue 14).
@Suite struct MissingDeleteTests {
    @Test func byDefaultADeleteOfAMissingRecordSucceedsAndLeavesNoTrace() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        #expect(fixture.cloud.configuration.missingDeletes == .succeed)
        let outcome = fixture.modify(deletes: ["never-saved", "n1"], from: fixture.laptop)
        #expect(outcome.response.items.map(\.code) == [nil, nil])
        #expect(!outcome.response.isPartialFailure)
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName) == ["n1"])
        let again = fixture.modify(deletes: ["n1"], from: fixture.phone)
        #expect(again.response.items.map(\.code) == [nil], "deleted already: still a success")
        #expect(again.noteKinds.isEmpty)
        #expect(again.pushes.isEmpty)
    }

    @Test func withUnknownItemADeleteOfAMissingRecordFailsOnItsOwn() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("n2"))
        fixture.modify(deletes: ["n2"], from: fixture.laptop)
        fixture.cloud.setMissingDeletes(.unknownItem)
        let before = fixture.cloud.tombstones(in: fixture.zone)
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n3"))], deletes: ["never-saved", "n2", "n1"])
        let items = outcome.response.items
        #expect(items.map(\.code) == [nil, .unknownItem, .unknownItem, nil])
        #expect(items[1].error?.message == "Record 'never-saved' to delete does not exist")
        #expect(items[2].error?.message == "Record 'n2' to delete does not exist")
        #expect(outcome.response.isPartialFailure)
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["n3"])
        #expect(before.map(\.recordName) == ["n2"])
        #expect(fixture.cloud.tombstones(in: fixture.zone).map(\.recordName).sorted() == ["n1", "n2"],
                "no tombstone for the missing records")
    }

    @Test func inAnAtomicRequestTheMissingDeleteFailsTheOthersWithBatchRequestFailed() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        fixture.cloud.setMissingDeletes(.unknownItem)
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n2"))], deletes: ["n1", "gone"], atomic: true)
        #expect(outcome.response.items.map(\.code) == [.batchRequestFailed, .batchRequestFailed, .unknownItem])
        #expect(outcome.noteKinds == ["records.atomic-rollback"])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func settingItBackToSucceedRestoresTheDefault() {
        let fixture = CloudFixture()
        fixture.cloud.setMissingDeletes(.unknownItem)
        #expect(fixture.modify(deletes: ["gone"]).response.items.map(\.code) == [.unknownItem])
        fixture.cloud.setMissingDeletes(.succeed)
        #expect(fixture.modify(deletes: ["gone"]).response.items.map(\.code) == [nil])
    }

    @Test func aDeleteRefusedForAnotherReasonKeepsThatReason() {
        let fixture = CloudFixture()
        fixture.cloud.setMissingDeletes(.unknownItem)
        let outcome = fixture.modify(deletes: ["gone", "gone"])
        #expect(outcome.response.items.map(\.code) == [.unknownItem, .invalidArguments],
                "a duplicate is a duplicate first")
        fixture.cloud.throttleNextDeletes(account: "alice", records: 1, retryAfter: .seconds(2))
        let throttled = fixture.modify(deletes: ["gone"])
        #expect(throttled.response.items.map(\.code) == [.requestRateLimited])
    }
}
