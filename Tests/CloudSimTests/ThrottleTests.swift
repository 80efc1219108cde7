import CloudSim
import Kernel
import Testing

/// `throttle ACCOUNT for D` (operation level) and `throttle ACCOUNT next-upload N records
/// retry-after D` (per item), ERR-3.
@Suite struct ThrottleTests {
    @Test func aThrottleWindowFailsEveryRequestOfTheAccountWithTheRestOfTheWindow() {
        let fixture = CloudFixture()
        fixture.now = .seconds(10)
        fixture.cloud.throttle(account: "alice", until: .seconds(40))
        let outcome = fixture.cloud.handle(
            .fetchDatabaseChanges(scope: .privateDatabase, token: nil), from: fixture.phone,
            now: .seconds(15))
        #expect(
            outcome.response
                == .failure(
                    CloudError(
                        .requestRateLimited, message: "Request rate limited",
                        retryAfter: .seconds(25))))
        let later = fixture.cloud.handle(
            .modifyRecords(
                scope: .privateDatabase, zone: fixture.zone, saves: [newSave(fixture.note("n1"))],
                deletes: [], policy: .ifServerRecordUnchanged, atomic: false),
            from: fixture.laptop, now: .milliseconds(39_500))
        #expect(later.response.failure?.retryAfter == .milliseconds(500))
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
    }

    @Test func theWindowEndsAtItsEnd() {
        let fixture = CloudFixture()
        fixture.cloud.throttle(account: "alice", until: .seconds(40))
        let outcome = fixture.cloud.handle(
            .fetchUserRecordID, from: fixture.phone, now: .seconds(40))
        #expect(outcome.response.failure == nil)
    }

    @Test func aThrottleWindowLeavesOtherAccountsAlone() {
        let fixture = CloudFixture()
        fixture.cloud.throttle(account: "alice", until: .hours(1))
        #expect(fixture.send(.fetchUserRecordID, from: fixture.desktop).response.failure == nil)
    }

    @Test func theNextUploadFailsItsFirstSavesWithRetryAfterOnTheItems() {
        let fixture = CloudFixture()
        fixture.cloud.throttleNextUpload(account: "alice", records: 2, retryAfter: .seconds(10))
        let outcome = fixture.modify(saves: ["a", "b", "c", "d"].map { newSave(fixture.note($0)) })
        let items = outcome.response.items
        #expect(items.map(\.code) == [.requestRateLimited, .requestRateLimited, nil, nil])
        #expect(items[0].error?.retryAfter == .seconds(10))
        #expect(items[1].error?.retryAfter == .seconds(10))
        #expect(outcome.response.isPartialFailure)
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["c", "d"])
        // Used up: the retry goes through.
        let retry = fixture.modify(saves: ["a", "b"].map { newSave(fixture.note($0)) })
        #expect(retry.response.items.map(\.code) == [nil, nil])
    }

    @Test func aRequestWithoutSavesDoesNotUseTheNextUploadThrottle() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("x"))
        fixture.cloud.throttleNextUpload(account: "alice", records: 1, retryAfter: .seconds(5))
        #expect(fixture.modify(deletes: ["x"]).response.items.map(\.code) == [nil])
        #expect(fixture.insert(fixture.note("a")).map(\.code) == [.requestRateLimited])
    }

    @Test func anUploadToAMissingZoneDoesNotUseTheNextUploadThrottle() {
        let fixture = CloudFixture(createZone: false)
        fixture.cloud.throttleNextUpload(account: "alice", records: 1, retryAfter: .seconds(5))
        #expect(fixture.insert(fixture.note("a")).map(\.code) == [.zoneNotFound])
        fixture.createAppZone(for: fixture.phone)
        #expect(fixture.insert(fixture.note("a")).map(\.code) == [.requestRateLimited])
    }

    @Test func theNextUploadThrottleIsPerAccount() {
        let fixture = CloudFixture()
        fixture.createAppZone(for: fixture.desktop)
        fixture.cloud.throttleNextUpload(account: "alice", records: 1, retryAfter: .seconds(5))
        let bobNote = CloudRecord(recordType: "Note", recordName: "b1", zone: fixture.bobZone)
        #expect(
            fixture.modify(saves: [newSave(bobNote)], from: fixture.desktop).response.items.map(
                \.code) == [nil])
        #expect(fixture.insert(fixture.note("a")).map(\.code) == [.requestRateLimited])
    }

    @Test func moreThrottledRecordsThanSavesFailsThemAllAndIsUsedUp() {
        let fixture = CloudFixture()
        fixture.cloud.throttleNextUpload(account: "alice", records: 5, retryAfter: .seconds(1))
        #expect(fixture.insert(fixture.note("a")).map(\.code) == [.requestRateLimited])
        #expect(fixture.insert(fixture.note("a")).map(\.code) == [nil])
    }
}
