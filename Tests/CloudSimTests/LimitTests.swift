import CloudSim
import Kernel
import Testing

/// [CKError] `limitExceeded` and [CKRecord] (docs/CLOUDSIM.md rows 16-17): at most 400 items per request (operation level), at most 1 MB per
/// record excluding assets (per item).
@Suite struct LimitTests {
    @Test func fourHundredItemsAreAccepted() {
        let fixture = CloudFixture()
        let saves = (0..<399).map { newSave(fixture.note("n\($0)")) }
        let outcome = fixture.modify(saves: saves, deletes: ["ghost"])
        #expect(outcome.response.items.count == 400)
        #expect(!outcome.response.isPartialFailure)
    }

    @Test func fourHundredAndOneItemsFailTheRequestWithCloudKitsMessage() {
        let fixture = CloudFixture()
        let saves = (0..<300).map { newSave(fixture.note("n\($0)")) }
        let deletes = (0..<101).map { "d\($0)" }
        let before = fixture.cloud.snapshot()
        let outcome = fixture.modify(saves: saves, deletes: deletes)
        #expect(
            outcome.response
                == .failure(
                    CloudError(
                        .limitExceeded,
                        message: "Your request contains 401 items which is more than the maximum "
                            + "number of items in a single request (400)")))
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func theItemLimitComesFromTheConfiguration() {
        let fixture = CloudFixture(maxItemsPerRequest: 2)
        let outcome = fixture.modify(deletes: ["a", "b", "c"])
        #expect(
            outcome.response.failure?.message
                == "Your request contains 3 items which is more than the maximum number of items "
                + "in a single request (2)")
    }

    /// Field `t` with a string of `length` bytes: 1 byte of key plus the string.
    static let sizes: [(length: Int, fits: Bool)] = [(1_048_575, true), (1_048_576, false)]

    @Test(arguments: sizes)
    func aRecordOfMoreThanOneMegabyteFailsPerItem(_ length: Int, _ fits: Bool) {
        let fixture = CloudFixture()
        let big = fixture.note("big", ["t": .string(String(repeating: "x", count: length))])
        let results = fixture.insert(big, fixture.note("small"))
        if fits {
            #expect(results.map(\.code) == [nil, nil])
        } else {
            #expect(results.first?.error == CloudError(.limitExceeded, message: "record too large"))
            #expect(results.last?.code == nil)
            #expect(fixture.cloud.record(named: "big", in: fixture.zone) == nil)
        }
    }

    @Test func assetsDoNotCountTowardsTheRecordLimit() {
        let fixture = CloudFixture()
        let photo = [UInt8](repeating: 7, count: 3 * 1_048_576)
        let results = fixture.insert(
            fixture.note("n1", ["photo": .asset(photo), "title": .string("x")]))
        #expect(results.map(\.code) == [nil])
        #expect(fixture.serverRecord("n1").fields["photo"] == .asset(photo))
    }

    @Test func theLimitAppliesToTheRecordAfterTheChanges() {
        let fixture = CloudFixture()
        let half = String(repeating: "x", count: 600_000)
        fixture.insert(fixture.note("n1", ["a": .string(half)]))
        let grown = fixture.modify(saves: [fixture.edit("n1", ["b": .string(half)])]).response.items
        #expect(grown.map(\.code) == [.limitExceeded])
        let swapped = fixture.modify(saves: [fixture.edit("n1", ["a": nil, "b": .string(half)])])
            .response.items
        #expect(swapped.map(\.code) == [nil])
        #expect(fixture.serverRecord("n1").sortedKeys == ["b"])
    }

    @Test func theRecordLimitComesFromTheConfiguration() {
        let fixture = CloudFixture(maxRecordSizeBytes: 10)
        #expect(
            fixture.insert(fixture.note("n1", ["t": .string("123456789")])).map(\.code) == [nil])
        #expect(
            fixture.insert(fixture.note("n2", ["t": .string("1234567890")])).map(\.code) == [
                .limitExceeded
            ])
    }
}
