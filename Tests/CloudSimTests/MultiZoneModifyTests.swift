import CloudSim
import Kernel
import Testing

/// Apple, CKModifyRecordsOperation: one operation saves and deletes records of several zones
/// of a database (CKSyncEngine sends such batches); `isAtomic` applies "within each zone": a
/// failing item fails the other items of its zone only.
@Suite struct MultiZoneModifyTests {
    let work = ZoneID(owner: "alice", name: "Work")

    func fixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.send(.modifyZones(scope: .privateDatabase, save: [work], delete: []), from: fixture.phone)
        return fixture
    }

    func workNote(_ name: String) -> CloudRecord {
        CloudRecord(recordType: "Note", recordName: name, zone: work, fields: ["t": .string(name)])
    }

    @Test func oneRequestSavesIntoSeveralZonesAndAnswersInRequestOrder() {
        let fixture = fixture()
        fixture.insert(fixture.note("gone"))
        let outcome = fixture.modify(
            saves: [newSave(workNote("w1")), newSave(fixture.note("a1")), newSave(workNote("w2"))],
            deletes: ["gone"])
        let items = outcome.response.items
        #expect(items.map { $0.savedRecord?.zone } == [work, fixture.zone, work, nil])
        #expect(items.last == .deleted(recordName: "gone"))
        #expect(fixture.cloud.records(in: work).map(\.recordName) == ["w1", "w2"])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["a1"])
        // Both zones are in the database feed.
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed == [fixture.zone, work])
    }

    @Test func theSameRecordNameInTwoZonesIsTwoRecords() {
        let fixture = fixture()
        let outcome = fixture.modify(saves: [newSave(fixture.note("n1")), newSave(workNote("n1"))])
        #expect(outcome.response.items.allSatisfy { $0.savedRecord != nil })
    }

    @Test func atomicityIsPerZone() {
        let fixture = fixture()
        fixture.cloud.reject(recordName: "bad", account: "alice", with: .serverRejectedRequest)
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("a1")), newSave(workNote("w1")), newSave(workNote("bad"))],
            atomic: true)
        #expect(
            outcome.response.items.map(\.code) == [nil, .batchRequestFailed, .serverRejectedRequest])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["a1"])
        #expect(fixture.cloud.records(in: work).isEmpty)
        #expect(outcome.noteKinds.contains("records.atomic-rollback"))
    }

    @Test func theItemLimitCountsTheWholeRequest() {
        let fixture = CloudFixture(maxItemsPerRequest: 2)
        fixture.send(.modifyZones(scope: .privateDatabase, save: [work], delete: []), from: fixture.phone)
        let outcome = fixture.modify(
            saves: [newSave(fixture.note("a1")), newSave(workNote("w1")), newSave(workNote("w2"))])
        #expect(outcome.response.failure?.code == .limitExceeded)
    }

    /// A record naming another owner's zone goes into the account's own zone of that name.
    @Test func aZoneOfAnotherOwnerIsTheAccountsOwn() {
        let fixture = fixture()
        let bobs = CloudRecord(recordType: "Note", recordName: "b1", zone: fixture.bobZone)
        let bobsBefore = fixture.cloud.records(in: fixture.bobZone)
        let outcome = fixture.modify(saves: [newSave(fixture.note("a1")), newSave(bobs)])
        #expect(outcome.response.failure == nil)
        #expect(outcome.noteKinds == ["owner.resolved", "record.saved", "record.saved"])
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["a1", "b1"])
        #expect(fixture.cloud.records(in: fixture.bobZone) == bobsBefore)
    }

    @Test func everyZoneThatChangedPushesOnce() {
        let fixture = fixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        let outcome = fixture.modify(saves: [newSave(fixture.note("a1")), newSave(workNote("w1"))])
        #expect(outcome.pushes == ["laptop"])
    }
}
