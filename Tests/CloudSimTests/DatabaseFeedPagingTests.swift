import CloudSim
import Kernel
import Testing

/// Apple, CKFetchDatabaseChangesOperation: the changes come in batches (`resultsLimit`), each
/// with a change token, and `moreComing` tells that the server has more; fetching again from
/// the page's token resumes after it.
@Suite struct DatabaseFeedPagingTests {
    func zone(_ name: String) -> ZoneID { ZoneID(owner: "alice", name: name) }

    func pages(_ fixture: CloudFixture, from token: DatabaseChangeToken?) -> [CloudResponse] {
        var responses: [CloudResponse] = []
        var token = token
        for _ in 0..<10 {
            let response = fixture.send(
                .fetchDatabaseChanges(scope: .privateDatabase, token: token), from: fixture.laptop
            ).response
            responses.append(response)
            guard case .databaseChanges(_, _, let next, let moreComing) = response, moreComing
            else { break }
            token = next
        }
        return responses
    }

    @Test func aFeedLargerThanAPagePagesWithMoreComing() {
        let fixture = CloudFixture(databaseChangesPageSize: 2)
        for name in ["Z1", "Z2", "Z3", "Z4", "Z5"] {
            fixture.send(
                .modifyZones(scope: .privateDatabase, save: [zone(name)], delete: []),
                from: fixture.phone)
        }
        let responses = pages(fixture, from: nil)
        #expect(responses.count == 3)
        let changed = responses.compactMap { $0.databaseChanges?.changed }
        #expect(changed == [[fixture.zone, zone("Z1")], [zone("Z2"), zone("Z3")], [zone("Z4"), zone("Z5")]])
        let more = responses.map { response -> Bool in
            if case .databaseChanges(_, _, _, let moreComing) = response { return moreComing }
            return false
        }
        #expect(more == [true, true, false])
        // The last page's token is current: nothing new after it.
        let last = responses.last?.databaseChanges?.token
        #expect(fixture.fetchDatabase(after: last).databaseChanges?.changed.isEmpty == true)
    }

    @Test func deletionsAndChangesShareThePagesInFeedOrder() {
        let fixture = CloudFixture(databaseChangesPageSize: 1)
        let start = fixture.fetchDatabase(after: nil).databaseChanges?.token
        fixture.send(.modifyZones(scope: .privateDatabase, save: [zone("Z1")], delete: []), from: fixture.phone)
        fixture.send(.modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone]), from: fixture.phone)
        let responses = pages(fixture, from: start)
        #expect(responses.count == 2)
        #expect(responses.first?.databaseChanges?.changed == [zone("Z1")])
        #expect(responses.first?.databaseChanges?.deleted.isEmpty == true)
        #expect(
            responses.last?.databaseChanges?.deleted
                == [ZoneDeletion(zone: fixture.zone, reason: .deleted)])
    }

    @Test func aPageSizeAboveTheFeedAnswersAtOnce() {
        let fixture = CloudFixture()
        let responses = pages(fixture, from: nil)
        #expect(responses.count == 1)
        #expect(responses.first?.databaseChanges?.changed == [fixture.zone])
    }
}
