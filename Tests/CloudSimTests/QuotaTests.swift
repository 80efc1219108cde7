import CloudSim
import Kernel
import Testing

/// `quota ACCOUNT full|ok` (ERR-4, ERR-6): saves fail `quotaExceeded`, deletes still succeed.
@Suite struct QuotaTests {
    @Test func aFullQuotaFailsSavesPerItem() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1", ["v": .int(1)]))
        fixture.cloud.setQuotaFull(account: "alice", true)
        let before = fixture.cloud.snapshot()
        let results = fixture.modify(saves: [
            newSave(fixture.note("n2")),
            fixture.edit("n1", ["v": .int(2)]),
        ]).response.items
        #expect(results.map(\.code) == [.quotaExceeded, .quotaExceeded])
        #expect(results.first?.error?.retryAfter == nil)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func deletesSucceedWhileTheQuotaIsFull() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("n2"))
        fixture.cloud.setQuotaFull(account: "alice", true)
        let outcome = fixture.modify(saves: [newSave(fixture.note("n3"))], deletes: ["n1"])
        #expect(outcome.response.items.map(\.code) == [.quotaExceeded, nil])
        #expect(outcome.response.items.last?.isDeleted == true)
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["n2"])
    }

    @Test func quotaOfOneAccountDoesNotAffectAnother() {
        let fixture = CloudFixture()
        fixture.createAppZone(for: fixture.desktop)
        fixture.cloud.setQuotaFull(account: "alice", true)
        let bobNote = CloudRecord(recordType: "Note", recordName: "b1", zone: fixture.bobZone)
        #expect(
            fixture.modify(saves: [newSave(bobNote)], from: fixture.desktop).response.items.first?
                .code == nil)
    }

    @Test func savesWorkAgainOnceTheQuotaIsOk() {
        let fixture = CloudFixture()
        fixture.cloud.setQuotaFull(account: "alice", true)
        #expect(fixture.insert(fixture.note("n1")).first?.code == .quotaExceeded)
        fixture.cloud.setQuotaFull(account: "alice", false)
        #expect(fixture.insert(fixture.note("n1")).first?.savedRecord != nil)
    }

    @Test func aConflictIsReportedBeforeTheQuota() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        fixture.cloud.setQuotaFull(account: "alice", true)
        #expect(
            fixture.insert(fixture.note("n1"), from: fixture.laptop).first?.code
                == .serverRecordChanged)
    }
}
