import CloudSim
import Kernel
import Testing

/// Apple, CKError `limitExceeded`: a request that is too large (over the item count, or over
/// its total size, 2 MB excluding assets) fails as a whole, and the client splits it. A
/// `CKFetchRecordsOperation` takes at most 400 record IDs (as reported).
@Suite struct RequestLimitTests {
    @Test func fetchingFourHundredRecordsIsAcceptedAndFourHundredAndOneIsNot() {
        let fixture = CloudFixture()
        let accepted = fixture.send(
            .fetchRecords(
                scope: .privateDatabase, zone: fixture.zone, names: (0..<400).map { "n\($0)" }),
            from: fixture.phone)
        #expect(accepted.response.items.count == 400)
        let refused = fixture.send(
            .fetchRecords(
                scope: .privateDatabase, zone: fixture.zone, names: (0..<401).map { "n\($0)" }),
            from: fixture.phone)
        #expect(
            refused.response
                == .failure(
                    CloudError(
                        .limitExceeded,
                        message: "Your request contains 401 items which is more than the maximum "
                            + "number of items in a single request (400)")))
    }

    @Test func aRequestOverTwoMegabytesFailsAsAWholeAndNothingIsSaved() {
        let fixture = CloudFixture()
        let big = [UInt8](repeating: 7, count: 800_000)
        let saves = (0..<3).map { newSave(fixture.note("n\($0)", ["blob": .bytes(big)])) }
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modify(saves: saves)
        #expect(outcome.response.failure?.code == .limitExceeded)
        #expect(
            outcome.response.failure?.message
                == "Your request is 2400012 bytes which is more than the maximum size of a "
                + "request (2097152 bytes)")
        #expect(fixture.cloud.snapshot() == before)
        // Split in two, both halves fit.
        #expect(fixture.modify(saves: Array(saves[0..<2])).response.items.count == 2)
        #expect(fixture.modify(saves: [saves[2]]).response.items.count == 1)
        #expect(fixture.cloud.records(in: fixture.zone).count == 3)
    }

    @Test func assetsDoNotCountTowardsTheRequestSize() {
        let fixture = CloudFixture()
        let big = [UInt8](repeating: 7, count: 800_000)
        let saves = (0..<3).map { newSave(fixture.note("n\($0)", ["photo": .asset(big)])) }
        #expect(fixture.modify(saves: saves).response.items.allSatisfy { $0.savedRecord != nil })
    }
}
