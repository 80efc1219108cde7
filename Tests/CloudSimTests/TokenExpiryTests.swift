import CloudSim
import Kernel
import Testing

/// [CKError.Code] `changeTokenExpired` (docs/CLOUDSIM.md row 32): `changeTokenExpired` for database and zone tokens, after `expire-tokens`,
/// after a zone was created again, and for tokens that were never this feed's.
@Suite struct TokenExpiryTests {
    let expired = CloudError(
        .changeTokenExpired, message: "client knowledge differs from server knowledge")

    @Test func expireTokensExpiresEveryZoneAndDatabaseTokenHandedOutSoFar() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let zoneToken = fixture.fetchZone(after: nil).page?.token
        let databaseToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        fixture.cloud.expireTokens(account: "alice")
        #expect(fixture.fetchZone(after: zoneToken).failure == expired)
        #expect(fixture.fetchDatabase(after: databaseToken).failure == expired)
        #expect(fixture.cloud.snapshot().accounts.first?.tokenEpoch == 2)
    }

    @Test func tokensHandedOutAfterTheExpiryWork() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        fixture.cloud.expireTokens(account: "alice")
        let zoneToken = fixture.fetchZone(after: nil).page?.token
        let databaseToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        fixture.insert(fixture.note("n2"), from: fixture.laptop)
        #expect(fixture.fetchZone(after: zoneToken).page.map { names($0.records) } == ["n2"])
        #expect(
            fixture.fetchDatabase(after: databaseToken).databaseChanges?.changed == [fixture.zone])
    }

    @Test func expiryOfOneAccountLeavesTheOtherAlone() {
        let fixture = CloudFixture()
        fixture.createAppZone(for: fixture.desktop)
        let bobToken = fixture.fetchZone(after: nil, zone: fixture.bobZone, from: fixture.desktop)
            .page?.token
        fixture.cloud.expireTokens(account: "alice")
        #expect(
            fixture.fetchZone(after: bobToken, zone: fixture.bobZone, from: fixture.desktop).page
                != nil)
    }

    @Test func aZoneTokenOfAnEarlierIncarnationIsExpired() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let oldToken = fixture.fetchZone(after: nil).page?.token
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone]),
            from: fixture.laptop)
        fixture.createAppZone(for: fixture.laptop)
        #expect(fixture.fetchZone(after: oldToken).failure == expired)
        #expect(fixture.fetchZone(after: nil).page?.token.incarnation == 2)
    }

    @Test func aTokenOfAnotherZoneIsExpired() {
        let fixture = CloudFixture()
        let other = ZoneID(owner: "alice", name: "Other")
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        let otherToken = fixture.fetchZone(after: nil, zone: other).page?.token
        #expect(fixture.fetchZone(after: otherToken).failure == expired)
    }

    @Test func aTokenAheadOfTheZoneIsExpired() {
        let fixture = CloudFixture()
        let forged = ZoneChangeToken(zone: fixture.zone, incarnation: 1, sequence: 99, epoch: 1)
        #expect(fixture.fetchZone(after: forged).failure == expired)
    }

    @Test func aDatabaseTokenOfAnotherAccountOrScopeIsExpired() {
        let fixture = CloudFixture()
        let aliceToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        #expect(fixture.fetchDatabase(after: aliceToken, from: fixture.desktop).failure == expired)
        let sharedToken = fixture.send(
            .fetchDatabaseChanges(scope: .sharedDatabase, token: nil), from: fixture.phone
        ).response.databaseChanges?.token
        #expect(sharedToken?.scope == .sharedDatabase)
        #expect(fixture.fetchDatabase(after: sharedToken).failure == expired)
    }

    @Test func afterExpiryANilTokenFetchMissesOtherDevicesDeletions() {
        // LIM-4: the laptop was away; the phone deleted n2; the laptop's token expired.
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("n2"))
        let laptopToken = fixture.fetchZone(after: nil, from: fixture.laptop).page?.token
        fixture.modify(deletes: ["n2"], from: fixture.phone)
        fixture.cloud.expireTokens(account: "alice")
        #expect(
            fixture.fetchZone(after: laptopToken, from: fixture.laptop).failure?.code
                == .changeTokenExpired)
        let refetch = fixture.fetchZone(after: nil, from: fixture.laptop).page
        #expect(refetch.map { names($0.records) } == ["n1"])
        #expect(refetch?.deletions.isEmpty == true)
    }

    /// OBX-24 before docs/CLOUDSIM.md row 30, the expiry first: the phone's upload created the
    /// zone, so its fetch from scratch after its database token expired is its first of the
    /// zone, and still brings no deletion of a record it created.
    @Test func anExpiredDatabaseTokenUsesUpTheFirstFetchOfEveryZone() {
        let fixture = CloudFixture()
        let databaseToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        fixture.insert(fixture.note("n1"), fixture.note("n2"))
        fixture.cloud.expireTokens(account: "alice")
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        #expect(fixture.fetchDatabase(after: databaseToken).failure == expired)
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed == [fixture.zone])
        let refetch = fixture.fetchZone(after: nil).page
        #expect(refetch.map { names($0.records) } == ["n2"])
        #expect(refetch?.deletions.isEmpty == true)
    }

    /// OBX-24 before row 30, the first fetch first: it used up the phone's first fetch, and the
    /// fetch from scratch after the zone token expired brings no deletion either.
    @Test func aFetchFromScratchAfterAnExpiredZoneTokenBringsNoDeletion() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("n2"))
        let zoneToken = fixture.fetchZone(after: nil).page?.token
        fixture.cloud.expireTokens(account: "alice")
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        #expect(fixture.fetchZone(after: zoneToken).failure == expired)
        let refetch = fixture.fetchZone(after: nil).page
        #expect(refetch.map { names($0.records) } == ["n2"])
        #expect(refetch?.deletions.isEmpty == true)
    }

    /// A zone token of a zone the phone never fetched, expired: only that device's first fetch
    /// is used up; without an expired answer the first fetch still brings its deletions.
    @Test func onlyTheDeviceAnsweredExpiredLosesItsFirstFetch() {
        let fixture = CloudFixture()
        let phoneToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        fixture.insert(fixture.note("n1"))
        fixture.insert(fixture.note("l1"), from: fixture.laptop)
        fixture.cloud.expireTokens(account: "alice")
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        fixture.modify(deletes: ["l1"], from: fixture.phone)
        #expect(fixture.fetchDatabase(after: phoneToken).failure == expired)
        #expect(fixture.fetchZone(after: nil).page?.deletions.isEmpty == true)
        let laptop = fixture.fetchZone(after: nil, from: fixture.laptop).page
        #expect(laptop?.deletions.map(\.recordName) == ["l1"])
    }
}
