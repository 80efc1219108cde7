import CloudSim
import Kernel
import Testing

/// [CKModifyRecordsOperation] `isAtomic` (docs/CLOUDSIM.md row 22): an atomic request with a failing item applies nothing; the innocent items
/// fail `batchRequestFailed`. A non-atomic one fails item by item. Also duplicates.
@Suite struct AtomicTests {
    @Test func anAtomicRequestWithAFailureAppliesNothing() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("old"))
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modify(
            saves: [
                newSave(fixture.note("n2")), newSave(fixture.note("n1")),
                newSave(fixture.note("n3")),
            ],
            deletes: ["old"], atomic: true)
        let items = outcome.response.items
        #expect(
            items.map(\.code) == [
                .batchRequestFailed, .serverRecordChanged, .batchRequestFailed,
                .batchRequestFailed,
            ])
        #expect(
            items[0].error?.message
                == "Record 'n2' will not be saved because of previous error in atomic zone")
        #expect(
            items[3].error?.message
                == "Record 'old' will not be deleted because of previous error in atomic zone")
        #expect(outcome.response.isPartialFailure)
        #expect(outcome.pushes.isEmpty)
        #expect(outcome.noteKinds == ["records.atomic-rollback"])
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func anAtomicRequestWithoutFailuresAppliesEverything() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("old"))
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n1"))], deletes: ["old"], atomic: true)
        #expect(outcome.response.items.map(\.code) == [nil, nil])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["n1"])
    }

    @Test func aNonAtomicRequestAppliesWhatSucceeds() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("old"))
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("n2")), newSave(fixture.note("n1"))], deletes: ["old"],
            atomic: false)
        #expect(outcome.response.items.map(\.code) == [nil, .serverRecordChanged, nil])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["n1", "n2"])
    }

    @Test func anAtomicRollbackCreatesNoSchemaAndUsesNoChangeTags() {
        let fixture = CloudFixture()
        let before = fixture.cloud.snapshot()
        fixture.modify(
            saves: [
                newSave(fixture.note("n1", ["title": .string("x")])),
                newSave(fixture.note("n2", parent: "missing")),
            ], atomic: true)
        #expect(fixture.cloud.snapshot() == before)
        let saved = fixture.insert(fixture.note("n3"))
        #expect(saved.first?.savedRecord?.changeTag == "ct1")
    }

    @Test func anAtomicRequestStillUsesUpTheNextUploadThrottle() {
        let fixture = CloudFixture()
        fixture.cloud.throttleNextUpload(account: "alice", records: 1, retryAfter: .seconds(3))
        let first = fixture.modify(
            saves: [newSave(fixture.note("a")), newSave(fixture.note("b"))], atomic: true)
        #expect(first.response.items.map(\.code) == [.requestRateLimited, .batchRequestFailed])
        let second = fixture.modify(
            saves: [newSave(fixture.note("a")), newSave(fixture.note("b"))], atomic: true)
        #expect(second.response.items.map(\.code) == [nil, nil])
    }

    @Test func aZoneErrorFailsEveryItemWithTheZonesErrorEvenWhenAtomic() {
        let fixture = CloudFixture(createZone: false)
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("a"))], deletes: ["b"], atomic: true)
        #expect(outcome.response.items.map(\.code) == [.zoneNotFound, .zoneNotFound])
    }

    @Test func aNameTwiceInOneRequestFailsTheLaterItem() {
        let fixture = CloudFixture()
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("a")), newSave(fixture.note("a"))], deletes: ["a", "b"])
        #expect(
            outcome.response.items.map(\.code) == [nil, .invalidArguments, .invalidArguments, nil])
        #expect(
            outcome.response.items[1].error?.message
                == "Record 'a' appears more than once in the request")
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["a"])
    }

    /// Apple, CKModifyRecordsOperation `isAtomic`: atomicity applies within each zone. A
    /// record of a zone that does not exist fails for that zone only.
    @Test func aRecordOfAnotherZoneIsSavedThereOrFailsWithThatZonesError() {
        let fixture = CloudFixture()
        let other = CloudRecord(
            recordType: "Note", recordName: "x", zone: ZoneID(owner: "alice", name: "Other"))
        let results = fixture.modify(saves: [newSave(fixture.note("a")), newSave(other)])
            .response.items
        #expect(results.first?.savedRecord != nil)
        #expect(
            results.last?.error
                == CloudError(.zoneNotFound, message: "Zone 'Other' does not exist"))
    }
}
