import CloudSim
import Kernel
import Testing

/// The shared database as a participant sees it (docs/CLOUDSIM.md *The shared database*): the database feed
/// reports the owner's zone when it arrives, changes and leaves; the zone feed holds only the
/// records the participant's shares cover, with its own tokens and paging; records leaving
/// the view are deletions; pushes reach the participant's devices and the owner's.
@Suite struct SharedDatabaseFeedTests {
    func acceptedFixture(_ permission: SharePermission = .readWrite) -> CloudFixture {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept("f1", permission)
        return fixture
    }

    // MARK: Database feed

    @Test func theDatabaseFeedReportsTheZoneOnceAccepted() {
        let fixture = CloudFixture()
        fixture.makeTree()
        guard let empty = fixture.fetchSharedDatabase(after: nil).databaseChanges else {
            Issue.record("no database changes")
            return
        }
        #expect(empty.changed.isEmpty && empty.deleted.isEmpty)
        fixture.share("f1")
        let pending = fixture.fetchSharedDatabase(after: empty.token).databaseChanges
        #expect(pending?.changed.isEmpty == true)
        fixture.step(.accept, by: fixture.desktop)
        let accepted = fixture.fetchSharedDatabase(after: pending?.token).databaseChanges
        #expect(accepted?.changed == [fixture.zone])
        #expect(accepted?.deleted.isEmpty == true)
        #expect(fixture.fetchSharedDatabase(after: nil).databaseChanges?.changed == [fixture.zone])
        // Another device of bob sees the same shared database.
        #expect(
            fixture.fetchSharedDatabase(after: nil, from: fixture.bobPhone).databaseChanges?
                .changed == [fixture.zone])
        // The owner's shared database stays empty; its private feed is untouched by bob.
        #expect(
            fixture.fetchSharedDatabase(after: nil, from: fixture.phone).databaseChanges?
                .changed.isEmpty == true)
    }

    @Test func onlyChangesToVisibleRecordsReportTheZoneChanged() {
        let fixture = acceptedFixture()
        let start = fixture.fetchSharedDatabase(after: nil).databaseChanges?.token
        fixture.modify(saves: [fixture.edit("x1", ["title": .string("X")])])
        fixture.modify(saves: [fixture.edit("m1", ["title": .string("M")])])
        let quiet = fixture.fetchSharedDatabase(after: start).databaseChanges
        #expect(quiet?.changed.isEmpty == true)
        #expect(quiet?.token == start)
        fixture.modify(saves: [fixture.edit("n3", ["title": .string("N")])])
        #expect(
            fixture.fetchSharedDatabase(after: start).databaseChanges?.changed == [fixture.zone])
    }

    /// Every way of losing access makes the zone a deletion of the shared database feed.
    enum Loss: String, CaseIterable {
        case removed, stopped, left, rootDeleted, zoneDeleted, zoneDeletedByFault, zonePurged
    }

    func lose(_ loss: Loss, _ fixture: CloudFixture) {
        switch loss {
        case .removed: fixture.step(.removeParticipant(account: "bob"), by: fixture.phone)
        case .stopped: fixture.step(.stop, by: fixture.phone)
        case .left: fixture.step(.leave, by: fixture.desktop)
        case .rootDeleted: fixture.modify(deletes: ["f1"])
        case .zoneDeleted:
            fixture.send(
                .modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone]),
                from: fixture.laptop)
        case .zoneDeletedByFault: _ = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        case .zonePurged: _ = fixture.cloud.userDeleteZone(account: "alice", now: fixture.now)
        }
    }

    @Test(arguments: Loss.allCases)
    func losingAccessReportsTheZoneDeleted(_ loss: Loss) {
        let fixture = acceptedFixture()
        fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: fixture.bobPhone)
        let token = fixture.fetchSharedDatabase(after: nil).databaseChanges?.token
        lose(loss, fixture)
        let changes = fixture.fetchSharedDatabase(after: token).databaseChanges
        #expect(changes?.changed.isEmpty == true)
        #expect(changes?.deleted == [ZoneDeletion(zone: fixture.zone, reason: .deleted)])
        #expect(fixture.fetchSharedDatabase(after: nil).databaseChanges?.changed.isEmpty == true)
        #expect(fixture.cloud.sharedZones(of: "bob").isEmpty)
        let expected: AccessLoss =
            switch loss {
            case .removed: .removed
            case .left: .left
            case .stopped, .rootDeleted: .shareStopped
            case .zoneDeleted, .zoneDeletedByFault, .zonePurged: .zoneDeleted
            }
        #expect(fixture.cloud.accessLoss(of: "bob", to: fixture.zone) == expected)
        #expect(fixture.fetchShared(after: nil).response.failure?.code == .zoneNotFound)
    }

    @Test(arguments: [Loss.removed, .stopped, .rootDeleted, .zoneDeleted, .zoneDeletedByFault])
    func losingAccessPushesToTheParticipantsDevices(_ loss: Loss) {
        let fixture = acceptedFixture()
        fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: fixture.bobPhone)
        fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: fixture.desktop)
        let outcome: CloudOutcome
        switch loss {
        case .removed:
            outcome = fixture.step(.removeParticipant(account: "bob"), by: fixture.phone)
        case .stopped: outcome = fixture.step(.stop, by: fixture.phone)
        case .rootDeleted: outcome = fixture.modify(deletes: ["f1"])
        case .zoneDeleted:
            outcome = fixture.send(
                .modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone]),
                from: fixture.laptop)
        default: outcome = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        }
        #expect(outcome.pushes.contains("bobPhone") && outcome.pushes.contains("desktop"))
        #expect(outcome.pushes == outcome.pushes.sorted())
    }

    @Test func aZoneLeftAndAcceptedAgainIsInBothListsAndANewLife() throws {
        let fixture = acceptedFixture()
        let token = fixture.fetchSharedDatabase(after: nil).databaseChanges?.token
        let old = try #require(fixture.fetchShared(after: nil).response.page)
        fixture.step(.leave, by: fixture.desktop)
        fixture.share("f1")
        fixture.step(.accept, by: fixture.desktop)
        let changes = fixture.fetchSharedDatabase(after: token).databaseChanges
        #expect(changes?.changed == [fixture.zone])
        #expect(changes?.deleted == [ZoneDeletion(zone: fixture.zone, reason: .deleted)])
        // Tokens of the earlier life are expired.
        #expect(fixture.fetchShared(after: old.token).response.failure?.code == .changeTokenExpired)
        #expect(fixture.sharedNames() == ["Share-f1", "f1", "n1", "n2", "n3"])
    }

    // MARK: Zone feed

    @Test func theZoneFeedHoldsOnlyTheSharedRecords() {
        let fixture = acceptedFixture()
        guard let page = fixture.fetchShared(after: nil).response.page else {
            Issue.record("no page")
            return
        }
        #expect(names(page.records).sorted() == ["Share-f1", "f1", "n1", "n2", "n3"])
        #expect(page.deletions.isEmpty)
        #expect(!page.moreComing)
        #expect(page.token.participant == "bob")
        #expect(page.token.scope == .sharedDatabase)
        #expect(page.records.allSatisfy { $0.zone == fixture.zone })
        #expect(
            page.records.sorted { $0.recordName < $1.recordName }
                == fixture.cloud.visibleRecords(in: fixture.zone, for: "bob"))
    }

    @Test func changesOutsideTheShareNeverReachTheParticipant() throws {
        let fixture = acceptedFixture()
        let first = try #require(fixture.fetchShared(after: nil).response.page)
        fixture.insert(fixture.note("y1"))
        fixture.modify(saves: [fixture.edit("m1", ["title": .string("changed")])])
        fixture.modify(deletes: ["x1", "n2"])
        let page = fixture.fetchShared(after: first.token).response.page
        #expect(page?.records.isEmpty == true)
        #expect(page.map { names($0.deletions) } == ["n2"])
    }

    @Test func recordsMovedOutOfTheShareLeaveAsDeletionsAndMovedInArrive() throws {
        let fixture = acceptedFixture()
        let first = try #require(fixture.fetchShared(after: nil).response.page)
        var moved = fixture.serverRecord("n1")
        moved.parent = "f2"
        var arrived = fixture.serverRecord("x1")
        arrived.parent = "n2"
        fixture.modify(saves: [
            RecordSave(record: moved, changedKeys: []),
            RecordSave(record: arrived, changedKeys: []),
        ])
        let page = try #require(fixture.fetchShared(after: first.token).response.page)
        #expect(names(page.records) == ["x1"])
        #expect(page.deletions == [
            RecordDeletion(recordName: "n1", recordType: "Note"),
            RecordDeletion(recordName: "n3", recordType: "Note"),
        ])
        // Moving back brings them back as changes.
        var back = fixture.serverRecord("n1")
        back.parent = "f1"
        fixture.modify(saves: [RecordSave(record: back, changedKeys: [])])
        let again = fixture.fetchShared(after: page.token).response.page
        #expect(again.map { names($0.records).sorted() } == ["n1", "n3"])
        #expect(again?.deletions.isEmpty == true)
    }

    @Test func stoppingOneOfTwoSharesDeletesOnlyItsRecords() throws {
        let fixture = acceptedFixture()
        fixture.shareAndAccept("f2", .readOnly)
        let first = try #require(fixture.fetchShared(after: nil).response.page)
        #expect(names(first.records).count == 8)
        fixture.step(.stop, on: .rootRecord("f2"), by: fixture.phone)
        let page = try #require(fixture.fetchShared(after: first.token).response.page)
        #expect(names(page.deletions) == ["Share-f2", "f2", "m1"])
        #expect(page.records.isEmpty)
        #expect(fixture.cloud.sharedZones(of: "bob") == [fixture.zone])
    }

    @Test func theShareRecordReappearsWhenTheParticipantsChange() throws {
        let fixture = acceptedFixture()
        let first = try #require(fixture.fetchShared(after: nil).response.page)
        fixture.share("f1", with: "carol")
        let page = fixture.fetchShared(after: first.token).response.page
        #expect(page.map { names($0.records) } == ["Share-f1"])
        #expect(page?.records.first?.participants.map(\.account) == ["alice", "bob", "carol"])
    }

    @Test func pagesResumeAfterTheLastItemWithTheParticipantsOwnSequence() {
        let fixture = acceptedFixture()
        var token: ZoneChangeToken?
        var seen: [[String]] = []
        var flags: [Bool] = []
        for _ in 0..<5 {
            guard let page = fixture.fetchShared(after: token, limit: 2).response.page else {
                Issue.record("no page")
                return
            }
            seen.append(names(page.records))
            flags.append(page.moreComing)
            token = page.token
            if !page.moreComing { break }
        }
        #expect(seen.flatMap { $0 }.sorted() == ["Share-f1", "f1", "n1", "n2", "n3"])
        #expect(seen.map(\.count) == [2, 2, 1])
        #expect(flags == [true, true, false])
        // The participant's sequence counts its own view, not the zone.
        #expect(token?.sequence == 5)
        let zoneToken = fixture.fetchZone(after: nil).page?.token
        #expect(zoneToken?.sequence != token?.sequence)
    }

    @Test func aNilTokenGivesEveryVisibleRecordAndNoDeletion() {
        let fixture = acceptedFixture()
        fixture.modify(deletes: ["n2"])
        let page = fixture.fetchShared(after: nil).response.page
        #expect(page.map { names($0.records).sorted() } == ["Share-f1", "f1", "n1", "n3"])
        #expect(page?.deletions.isEmpty == true)
    }

    // MARK: Tokens

    @Test func privateAndSharedTokensAreNotInterchangeable() {
        let fixture = acceptedFixture()
        guard let ownerToken = fixture.fetchZone(after: nil).page?.token,
            let bobToken = fixture.fetchShared(after: nil).response.page?.token
        else {
            Issue.record("no tokens")
            return
        }
        #expect(
            fixture.fetchShared(after: ownerToken).response.failure?.code == .changeTokenExpired)
        #expect(fixture.fetchZone(after: bobToken).failure?.code == .changeTokenExpired)
        // A token of one participant is worthless to another.
        fixture.share("f1", with: "carol")
        fixture.step(.accept, by: fixture.carolPad)
        #expect(
            fixture.fetchShared(after: bobToken, from: fixture.carolPad).response.failure?.code
                == .changeTokenExpired)
        // Database tokens: the shared feed's are not the private feed's.
        let privateDB = fixture.fetchDatabase(after: nil, from: fixture.desktop).databaseChanges
        #expect(
            fixture.fetchSharedDatabase(after: privateDB?.token).failure?.code
                == .changeTokenExpired)
    }

    @Test func expiringAParticipantsTokensExpiresItsSharedTokens() {
        let fixture = acceptedFixture()
        let zoneToken = fixture.fetchShared(after: nil).response.page?.token
        let databaseToken = fixture.fetchSharedDatabase(after: nil).databaseChanges?.token
        fixture.cloud.expireTokens(account: "bob")
        #expect(fixture.fetchShared(after: zoneToken).response.failure?.code == .changeTokenExpired)
        #expect(
            fixture.fetchSharedDatabase(after: databaseToken).failure?.code == .changeTokenExpired)
        // The owner's tokens are not the participant's.
        let ownerToken = fixture.fetchZone(after: nil).page?.token
        fixture.cloud.expireTokens(account: "bob")
        #expect(fixture.fetchZone(after: ownerToken).page != nil)
    }

    // MARK: Fetching records

    @Test func fetchingRecordsAnswersOnlyVisibleOnes() {
        let fixture = acceptedFixture()
        let outcome = fixture.send(
            .fetchRecords(scope: .sharedDatabase, zone: fixture.zone, names: ["n1", "x1", "ghost"]),
            from: fixture.desktop)
        let items = outcome.response.items
        #expect(items.first?.savedRecord?.recordName == "n1")
        #expect(items.dropFirst().map(\.code) == [.unknownItem, .unknownItem])
        #expect(items.dropFirst().allSatisfy { $0.error?.serverRecord == nil })
        #expect(outcome.refusalReasons == ["outside-share"])
        #expect(outcome.notes.first?.detail("recordName") == "x1")
    }

    // MARK: Pushes

    @Test func changesToSharedRecordsPushToParticipantsAndOwnerButNeverTheOriginator() {
        let fixture = acceptedFixture()
        for client in [fixture.phone, fixture.laptop] {
            fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: client)
        }
        for client in [fixture.desktop, fixture.bobPhone] {
            fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: client)
        }
        // A change of the owner to a shared record.
        let shared = fixture.modify(saves: [fixture.edit("n1", ["title": .string("A")])])
        #expect(shared.pushes == ["bobPhone", "desktop", "laptop"])
        // A change of the owner outside the share.
        let outside = fixture.modify(saves: [fixture.edit("x1", ["title": .string("A")])])
        #expect(outside.pushes == ["laptop"])
        // A change of the participant: the owner's devices and bob's other device.
        let participant = fixture.modifyShared(
            saves: [fixture.edit("n2", ["title": .string("B")])], from: fixture.desktop)
        #expect(participant.response.items.first?.savedRecord != nil)
        #expect(participant.pushes == ["bobPhone", "laptop", "phone"])
    }

    @Test func aParticipantSubscribedOnlyToItsPrivateDatabaseGetsNoSharedPush() {
        let fixture = acceptedFixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.desktop)
        let outcome = fixture.modify(saves: [fixture.edit("n1", ["title": .string("A")])])
        #expect(outcome.pushes.isEmpty)
    }

    // MARK: The view follows the zone

    @Test func theViewAlwaysEqualsTheVisibleRecords() {
        let fixture = acceptedFixture()
        fixture.shareAndAccept("f2", .readOnly)
        var token: ZoneChangeToken?
        var local: [String: CloudRecord] = [:]
        let steps: [() -> Void] = [
            { fixture.insert(fixture.note("n4", parent: "n3")) },
            { fixture.modify(deletes: ["n1"]) },
            { fixture.step(.stop, on: .rootRecord("f2"), by: fixture.phone) },
            {
                var record = fixture.serverRecord("x1")
                record.parent = "f1"
                fixture.modify(saves: [RecordSave(record: record, changedKeys: [])])
            },
            {
                fixture.modifyShared(
                    saves: [newSave(fixture.note("b1", ["by": .string("bob")], parent: "x1"))])
            },
            { fixture.share("f2", with: "bob") },
        ]
        for step in steps {
            step()
            var more = true
            var pages = 0
            while more && pages < 10 {
                pages += 1
                guard let page = fixture.fetchShared(after: token, limit: 3).response.page else {
                    Issue.record("no page")
                    return
                }
                for record in page.records { local[record.recordName] = record }
                for deletion in page.deletions { local[deletion.recordName] = nil }
                token = page.token
                more = page.moreComing
            }
            let expected = fixture.cloud.visibleRecords(in: fixture.zone, for: "bob")
            #expect(local.keys.sorted().compactMap { local[$0] } == expected)
        }
    }
}
