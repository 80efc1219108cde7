import CloudSim
import Kernel
import Testing

/// `reject LABEL with CODE` / `accept LABEL` (SCHEMA-4, ERR-7).
@Suite struct RejectTests {
    @Test(arguments: [CloudErrorCode.serverRejectedRequest, .invalidArguments, .limitExceeded])
    func savesOfARejectedRecordFailWithTheCodeUntilAccepted(_ code: CloudErrorCode) {
        let fixture = CloudFixture()
        fixture.cloud.reject(recordName: "n1", account: "alice", with: code)
        let results = fixture.insert(fixture.note("n1"), fixture.note("n2"))
        #expect(results.map(\.code) == [code, nil])
        #expect(results.first?.error?.message == "Record 'n1' was rejected by the server")
        fixture.cloud.accept(recordName: "n1", account: "alice")
        #expect(fixture.insert(fixture.note("n1")).map(\.code) == [nil])
    }

    @Test func aRejectedRecordCanStillBeDeleted() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        fixture.cloud.reject(recordName: "n1", account: "alice", with: .serverRejectedRequest)
        #expect(fixture.modify(deletes: ["n1"]).response.items.first?.isDeleted == true)
    }

    @Test func aRejectionIsPerAccount() {
        let fixture = CloudFixture()
        fixture.createAppZone(for: fixture.desktop)
        fixture.cloud.reject(recordName: "n1", account: "alice", with: .serverRejectedRequest)
        let bobNote = CloudRecord(recordType: "Note", recordName: "n1", zone: fixture.bobZone)
        #expect(
            fixture.modify(saves: [newSave(bobNote)], from: fixture.desktop).response.items.map(
                \.code) == [nil])
    }

    @Test func rejectionsShowInTheSnapshot() {
        let fixture = CloudFixture()
        fixture.cloud.reject(recordName: "n2", account: "alice", with: .serverRejectedRequest)
        fixture.cloud.reject(recordName: "n1", account: "alice", with: .invalidArguments)
        let rejected = fixture.cloud.snapshot().accounts.first?.rejectedRecords
        #expect(rejected?.map(\.recordName) == ["n1", "n2"])
        #expect(rejected?.map(\.code) == [.invalidArguments, .serverRejectedRequest])
    }
}
