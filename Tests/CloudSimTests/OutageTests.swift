import CloudSim
import Kernel
import Testing

/// `outage for D`: every request of every account fails `serviceUnavailable` with the rest of
/// the outage as retry-after.
@Suite struct OutageTests {
    @Test func anOutageFailsEveryRequestWithTheRestOfTheOutage() {
        let fixture = CloudFixture()
        fixture.cloud.outage(until: .seconds(60))
        let requests: [(CloudRequest, CloudClient)] = [
            (.fetchUserRecordID, fixture.phone),
            (.fetchDatabaseChanges(scope: .privateDatabase, token: nil), fixture.desktop),
            (
                .modifyRecords(
                    scope: .privateDatabase, zone: fixture.zone,
                    saves: [newSave(fixture.note("n1"))],
                    deletes: [], policy: .ifServerRecordUnchanged, atomic: false), fixture.laptop
            ),
        ]
        for (request, client) in requests {
            let outcome = fixture.cloud.handle(request, from: client, now: .seconds(20))
            #expect(
                outcome.response
                    == .failure(
                        CloudError(
                            .serviceUnavailable, message: "Service unavailable",
                            retryAfter: .seconds(40))))
        }
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
    }

    @Test func theOutageEndsAtItsEnd() {
        let fixture = CloudFixture()
        fixture.cloud.outage(until: .seconds(60))
        let outcome = fixture.cloud.handle(
            .modifyRecords(
                scope: .privateDatabase, zone: fixture.zone, saves: [newSave(fixture.note("n1"))],
                deletes: [], policy: .ifServerRecordUnchanged, atomic: false),
            from: fixture.phone, now: .seconds(60))
        #expect(outcome.response.items.map(\.code) == [nil])
    }

    @Test func anOutageComesBeforeAuthentication() {
        let fixture = CloudFixture()
        fixture.cloud.outage(until: .seconds(60))
        let signedOut = CloudClient(device: "tablet", account: nil)
        let outcome = fixture.cloud.handle(.fetchUserRecordID, from: signedOut, now: .seconds(1))
        #expect(outcome.response.failure?.code == .serviceUnavailable)
    }
}
