import CloudSim
import Kernel
import Testing

/// Apple, CKRecordZone `default()` and CKRecordZone.ID: every private database has a default
/// zone (`_defaultZone`) usable without saving it; it has no special capabilities (no atomic
/// saves, no change fetching, no sharing) and does not take part in database subscriptions
/// (CKDatabaseSubscription), so the database change feed never lists it. Query subscriptions
/// (CKQuerySubscription) still fire for its records. Custom zone names may not start with `_`.
@Suite struct DefaultZoneTests {
    var defaultZone: ZoneID { ZoneID.defaultZone(of: "alice") }

    func note(_ name: String, _ fields: SortedMap<String, CloudValue> = [:]) -> CloudRecord {
        CloudRecord(recordType: "Note", recordName: name, zone: defaultZone, fields: fields)
    }

    @Test func theDefaultZoneExistsWithoutBeingSaved() {
        #expect(ZoneID.defaultZoneName == "_defaultZone")
        let fixture = CloudFixture(createZone: false)
        let outcome = fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        #expect(outcome.response.items.map { $0.savedRecord != nil } == [true])
        #expect(
            fixture.send(.fetchZone(scope: .privateDatabase, zone: defaultZone), from: fixture.laptop)
                .response == .zoneFetched(defaultZone))
        let fetched = fixture.send(
            .fetchRecords(scope: .privateDatabase, zone: defaultZone, names: ["n1", "n2"]),
            from: fixture.laptop)
        #expect(fetched.response.items.map { $0.savedRecord != nil } == [true, false])
        #expect(outcome.noteKinds == ["record.saved"])
    }

    @Test func theDefaultZoneCannotBeCreatedOrDeleted() {
        let fixture = CloudFixture()
        fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        let error = CloudError(
            .invalidArguments, message: "The default zone cannot be created or deleted")
        for request in [
            CloudRequest.modifyZones(scope: .privateDatabase, save: [defaultZone], delete: []),
            CloudRequest.modifyZones(scope: .privateDatabase, save: [], delete: [defaultZone]),
        ] {
            let outcome = fixture.send(request, from: fixture.phone)
            #expect(
                outcome.response
                    == .zonesModified(
                        saved: [], deleted: [], failed: [ZoneFailure(zone: defaultZone, error: error)]))
            #expect(outcome.notes.isEmpty)
        }
        #expect(fixture.cloud.records(in: defaultZone).map(\.recordName) == ["n1"])
    }

    @Test func customZoneNamesMayNotStartWithAnUnderscore() {
        let fixture = CloudFixture(createZone: false)
        let bad = ZoneID(owner: "alice", name: "_Private")
        let empty = ZoneID(owner: "alice", name: "")
        let good = ZoneID(owner: "alice", name: "Notes_2")
        let outcome = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [bad, good, empty], delete: []),
            from: fixture.phone)
        #expect(
            outcome.response
                == .zonesModified(
                    saved: [good], deleted: [],
                    failed: [
                        ZoneFailure(
                            zone: bad,
                            error: CloudError(
                                .invalidArguments, message: "Zone name '_Private' is invalid")),
                        ZoneFailure(
                            zone: empty,
                            error: CloudError(.invalidArguments, message: "Zone name '' is invalid")),
                    ]))
        #expect(fixture.cloud.zones(of: "alice") == [good])
    }

    @Test func theDefaultZoneHasNoChangeFeed() {
        let fixture = CloudFixture()
        fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        let outcome = fixture.send(
            .fetchZoneChanges(scope: .privateDatabase, zone: defaultZone, token: nil, resultsLimit: 0),
            from: fixture.laptop)
        #expect(
            outcome.response
                == .failure(
                    CloudError(
                        .invalidArguments,
                        message: "The default zone does not support fetching changes")))
    }

    @Test func theDefaultZoneIsAbsentFromDatabaseChangesAndDatabaseSubscriptions() {
        let fixture = CloudFixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        let token = fixture.fetchDatabase(after: nil).databaseChanges?.token
        let outcome = fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        #expect(outcome.pushes.isEmpty)
        let changes = fixture.fetchDatabase(after: token).databaseChanges
        #expect(changes?.changed.isEmpty == true)
        #expect(changes?.deleted.isEmpty == true)
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed == [fixture.zone])
        // The same save in the app zone is a database change and pushes.
        let custom = fixture.insert(fixture.note("n2"))
        #expect(custom.map { $0.savedRecord != nil } == [true])
        #expect(fixture.fetchDatabase(after: token).databaseChanges?.changed == [fixture.zone])
    }

    @Test func queriesSubscriptionsFireForTheDefaultZone() {
        let fixture = CloudFixture()
        fixture.send(
            .saveQuerySubscription(
                scope: .privateDatabase, QuerySubscription(id: "notes", recordType: "Note")),
            from: fixture.laptop)
        let outcome = fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        #expect(outcome.pushes == ["laptop"])
    }

    @Test func theDefaultZoneIsNeverAtomic() {
        let fixture = CloudFixture()
        fixture.cloud.reject(recordName: "bad", account: "alice", with: .serverRejectedRequest)
        let outcome = fixture.modify(
            saves: [newSave(note("good")), newSave(note("bad"))], atomic: true, in: defaultZone)
        #expect(outcome.response.items.map { $0.savedRecord != nil } == [true, false])
        #expect(outcome.response.items.last?.error?.code == .serverRejectedRequest)
        #expect(fixture.cloud.records(in: defaultZone).map(\.recordName) == ["good"])
        // A custom zone rolls the same request back.
        let custom = fixture.modify(
            saves: [newSave(fixture.note("good")), newSave(fixture.note("bad"))], atomic: true)
        #expect(custom.response.items.map(\.error?.code) == [.batchRequestFailed, .serverRejectedRequest])
    }

    @Test func theDefaultZoneCannotBeShared() {
        let fixture = CloudFixture()
        fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        let outcome = fixture.send(
            .share(zone: defaultZone, target: .zone, action: .invite(account: "bob", permission: .readWrite)),
            from: fixture.phone)
        #expect(outcome.response.failure?.code == .invalidArguments)
    }

    /// Every account has a default zone: bob's zone ID names alice's own when alice asks.
    @Test func anotherAccountsDefaultZoneIDNamesTheOwn() {
        let fixture = CloudFixture(createZone: false)
        fixture.modify(saves: [newSave(note("n1"))], in: defaultZone)
        let outcome = fixture.send(
            .fetchRecords(
                scope: .privateDatabase, zone: ZoneID.defaultZone(of: "bob"), names: ["n1"]),
            from: fixture.phone)
        #expect(outcome.noteKinds == ["owner.resolved"])
        #expect(outcome.response.items.map { $0.savedRecord?.zone } == [defaultZone])
    }

    // For the literal code of `naive` (NAIVE-15), which saves into the default zone.

    @Test func saveIntoTheDefaultZoneWithoutCreatingIt() {
        let fixture = CloudFixture(createZone: false)
        let zone = ZoneID.defaultZone(of: "alice")
        let found = fixture.send(.fetchZone(scope: .privateDatabase, zone: zone), from: fixture.phone)
        #expect(found.response == .zoneFetched(zone))
        let record = CloudRecord(recordType: "Note", recordName: "Note_1", zone: zone,
                                 fields: ["title": .string("A")])
        let saved = fixture.modify(saves: [newSave(record)], in: zone)
        #expect(saved.response.items.first?.savedRecord?.fields["title"] == .string("A"))
        #expect(fixture.cloud.record(named: "Note_1", in: zone) != nil)
    }

    @Test func itIsNeverInTheDatabaseFeedAndDatabaseSubscriptionsNeverPush() {
        let fixture = CloudFixture(createZone: false)
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        let zone = ZoneID.defaultZone(of: "alice")
        let record = CloudRecord(recordType: "Note", recordName: "Note_1", zone: zone)
        #expect(fixture.modify(saves: [newSave(record)], in: zone).pushes.isEmpty)
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed.isEmpty == true)
        // A custom zone's save is reported and pushed, as before.
        fixture.createAppZone(for: fixture.phone)
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed == [fixture.zone])
    }

    @Test func querySubscriptionsCoverIt() {
        let fixture = CloudFixture(createZone: false)
        let subscription = QuerySubscription(id: "note-changes-subscription", recordType: "Note")
        fixture.send(.saveQuerySubscription(scope: .privateDatabase, subscription), from: fixture.laptop)
        let zone = ZoneID.defaultZone(of: "alice")
        let record = CloudRecord(recordType: "Note", recordName: "Note_1", zone: zone)
        #expect(fixture.modify(saves: [newSave(record)], in: zone).pushes == ["laptop"])
    }
}
