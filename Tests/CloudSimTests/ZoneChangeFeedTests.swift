import CloudSim
import Kernel
import Testing

/// [CKFetchRecordZoneChangesOperation] (docs/CLOUDSIM.md rows 28-32): the zone change feed, its paging and its tokens.
@Suite struct ZoneChangeFeedTests {
    /// Inserts n1...nCount, one request each, so each has its own sequence.
    func fixtureWithNotes(_ count: Int) -> CloudFixture {
        let fixture = CloudFixture()
        for index in 1...count {
            fixture.insert(fixture.note("n\(index)", ["v": .int(Int64(index))]))
        }
        return fixture
    }

    @Test func aNilTokenReturnsEveryLiveRecordAndNoTombstone() {
        let fixture = fixtureWithNotes(4)
        fixture.modify(deletes: ["n2"], from: fixture.laptop)
        // The tablet created none of the records (the phone did, below).
        guard let page = fixture.fetchZone(after: nil, from: fixture.tablet).page else {
            Issue.record("no page")
            return
        }
        #expect(names(page.records) == ["n1", "n3", "n4"])
        #expect(page.deletions.isEmpty)
        #expect(!page.moreComing)
        #expect(
            fixture.cloud.tombstones(in: fixture.zone) == [
                RecordDeletion(recordName: "n2", recordType: "Note")
            ])
    }

    /// FORUM-813286 and the choice of docs/CLOUDSIM.md row 30: a device's first fetch of the
    /// zone's life without a token brings the deletions of the records it created; a later
    /// one (after an expiry, say) brings none, and no device gets another's.
    @Test func aFirstNilTokenFetchBringsTheDeletionsOfTheFetchersOwnRecords() {
        let fixture = fixtureWithNotes(3)
        fixture.insert(fixture.note("l1"), from: fixture.laptop)
        // Edited by the laptop, still created by the phone.
        fixture.modify(saves: [fixture.edit("n3", ["v": .int(30)])], from: fixture.laptop)
        fixture.modify(deletes: ["n1", "n3", "l1"], from: fixture.laptop)
        let first = fixture.fetchZone(after: nil).page
        #expect(first?.deletions.map(\.recordName) == ["n1", "n3"])
        #expect(first.map { names($0.records) } == ["n2"])
        let again = fixture.fetchZone(after: nil).page
        #expect(again?.deletions.isEmpty == true)
        let laptop = fixture.fetchZone(after: nil, from: fixture.laptop).page
        #expect(laptop?.deletions.map(\.recordName) == ["l1"])
        let tablet = fixture.fetchZone(after: nil, from: fixture.tablet).page
        #expect(tablet?.deletions.isEmpty == true)
    }

    /// A record created again by another device after its deletion is that device's.
    @Test func aRecordCreatedAgainBelongsToItsNewCreator() {
        let fixture = fixtureWithNotes(1)
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        fixture.insert(fixture.note("n1"), from: fixture.laptop)
        fixture.modify(deletes: ["n1"], from: fixture.tablet)
        #expect(fixture.fetchZone(after: nil).page?.deletions.isEmpty == true)
        #expect(
            fixture.fetchZone(after: nil, from: fixture.laptop).page?.deletions.map(\.recordName)
                == ["n1"])
    }

    @Test func pagesResumeExactlyAfterTheLastItem() {
        let fixture = fixtureWithNotes(7)
        var token: ZoneChangeToken?
        var seen: [[String]] = []
        var flags: [Bool] = []
        for _ in 0..<5 {
            guard let page = fixture.fetchZone(after: token, limit: 3).page else {
                Issue.record("no page")
                return
            }
            seen.append(names(page.records))
            flags.append(page.moreComing)
            token = page.token
            if !page.moreComing { break }
        }
        #expect(seen == [["n1", "n2", "n3"], ["n4", "n5", "n6"], ["n7"]])
        #expect(flags == [true, true, false])
        // The last token is current: nothing more.
        let after = fixture.fetchZone(after: token, limit: 3).page
        #expect(after?.records.isEmpty == true)
        #expect(after?.deletions.isEmpty == true)
        #expect(after?.moreComing == false)
    }

    @Test func aPageExactlyAsLargeAsTheRestSaysNoMoreComing() {
        let fixture = fixtureWithNotes(3)
        let page = fixture.fetchZone(after: nil, limit: 3).page
        #expect(page.map { names($0.records) } == ["n1", "n2", "n3"])
        #expect(page?.moreComing == false)
    }

    @Test func changesBetweenPagesAreNotLost() {
        let fixture = fixtureWithNotes(4)
        guard let first = fixture.fetchZone(after: nil, limit: 2).page else {
            Issue.record("no page")
            return
        }
        #expect(names(first.records) == ["n1", "n2"])
        // n1 (already delivered) changes, n3 (not yet delivered) changes, n5 appears.
        fixture.modify(
            saves: [fixture.edit("n1", ["v": .int(10)]), fixture.edit("n3", ["v": .int(30)])],
            from: fixture.laptop)
        fixture.insert(fixture.note("n5"), from: fixture.laptop)
        var token = first.token
        var delivered: [String] = []
        for _ in 0..<5 {
            guard let page = fixture.fetchZone(after: token, limit: 2).page else {
                Issue.record("no page")
                return
            }
            delivered += names(page.records)
            token = page.token
            if !page.moreComing { break }
        }
        #expect(delivered == ["n4", "n1", "n3", "n5"])
    }

    @Test func eachChangedRecordComesOnceInItsLatestVersion() {
        let fixture = fixtureWithNotes(2)
        guard let start = fixture.fetchZone(after: nil).page?.token else {
            Issue.record("no token")
            return
        }
        for value in 2...4 {
            fixture.modify(
                saves: [fixture.edit("n1", ["v": .int(Int64(value))])], from: fixture.laptop)
        }
        let page = fixture.fetchZone(after: start).page
        #expect(page?.records == [fixture.serverRecord("n1")])
        #expect(page?.records.first?.fields["v"] == .int(4))
    }

    @Test func recordsAndDeletionsComeInSequenceOrderAndCountTowardsTheLimit() {
        let fixture = fixtureWithNotes(3)
        guard let start = fixture.fetchZone(after: nil).page?.token else {
            Issue.record("no token")
            return
        }
        fixture.modify(deletes: ["n2"], from: fixture.laptop)
        fixture.modify(saves: [fixture.edit("n1", ["v": .int(9)])], from: fixture.laptop)
        fixture.modify(deletes: ["n3"], from: fixture.laptop)
        let first = fixture.fetchZone(after: start, limit: 2).page
        #expect(first.map { names($0.deletions) } == ["n2"])
        #expect(first.map { names($0.records) } == ["n1"])
        #expect(first?.moreComing == true)
        let second = first.flatMap { fixture.fetchZone(after: $0.token, limit: 2).page }
        #expect(second?.deletions == [RecordDeletion(recordName: "n3", recordType: "Note")])
        #expect(second?.records.isEmpty == true)
        #expect(second?.moreComing == false)
    }

    /// The server cannot tell which records created after a token the client saw (its own
    /// uploads, say), so it reports their deletions too: a device that uploaded a record after
    /// its last download must learn that another device deleted it (SYNC-3).
    @Test func aTombstoneOfARecordBornAfterTheTokenIsReported() {
        let fixture = fixtureWithNotes(1)
        guard let start = fixture.fetchZone(after: nil).page?.token else {
            Issue.record("no token")
            return
        }
        fixture.insert(fixture.note("temp"), from: fixture.laptop)
        fixture.modify(deletes: ["temp", "n1"], from: fixture.laptop)
        let page = fixture.fetchZone(after: start).page
        #expect(page.map { names($0.deletions) } == ["temp", "n1"])
        #expect(page?.records.isEmpty == true)
    }

    @Test func aRecordDeletedAndCreatedAgainAfterTheTokenIsAChange() {
        let fixture = fixtureWithNotes(1)
        guard let start = fixture.fetchZone(after: nil).page?.token else {
            Issue.record("no token")
            return
        }
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        fixture.insert(fixture.note("n1", ["v": .int(100)]), from: fixture.laptop)
        let page = fixture.fetchZone(after: start).page
        #expect(page?.deletions.isEmpty == true)
        #expect(page?.records.map(\.fields) == [["v": .int(100)]])
    }

    @Test func aRecordTheClientHadIsReportedDeletedEvenAfterItCameBackAndWentAgain() {
        let fixture = fixtureWithNotes(1)
        guard let start = fixture.fetchZone(after: nil).page?.token else {
            Issue.record("no token")
            return
        }
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        fixture.insert(fixture.note("n1"), from: fixture.laptop)
        fixture.modify(deletes: ["n1"], from: fixture.laptop)
        let page = fixture.fetchZone(after: start).page
        #expect(page.map { names($0.deletions) } == ["n1"])
    }

    @Test(arguments: [0, -5])
    func aLimitOfZeroOrLessMeansAHundred(_ limit: Int) {
        let fixture = CloudFixture()
        let records = (1...150).map { fixture.note("n\(1000 + $0)") }
        fixture.modify(saves: records.map(newSave))
        let page = fixture.fetchZone(after: nil, limit: limit).page
        #expect(page?.records.count == 100)
        #expect(page?.moreComing == true)
    }

    @Test func tokensCarryTheZoneItsIncarnationAndTheAccountsEpoch() {
        let fixture = fixtureWithNotes(1)
        let token = fixture.fetchZone(after: nil).page?.token
        #expect(token?.zone == fixture.zone)
        #expect(token?.incarnation == 1)
        #expect(token?.epoch == 1)
        fixture.cloud.expireTokens(account: "alice")
        #expect(fixture.fetchZone(after: nil).page?.token.epoch == 2)
    }

    @Test func fetchRecordsAnswersFoundAndUnknownInRequestOrder() {
        let fixture = fixtureWithNotes(2)
        let items = fixture.send(
            .fetchRecords(
                scope: .privateDatabase, zone: fixture.zone, names: ["n2", "ghost", "n1"]),
            from: fixture.laptop
        ).response.items
        #expect(items.count == 3)
        #expect(items[0].savedRecord == fixture.serverRecord("n2"))
        #expect(
            items[1]
                == .failed(
                    recordName: "ghost", CloudError(.unknownItem, message: "Record not found")))
        #expect(items[2].savedRecord == fixture.serverRecord("n1"))
    }
}
