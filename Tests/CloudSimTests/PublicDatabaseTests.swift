import CloudSim
import Kernel
import Testing

/// The container's public database (docs/CLOUDSIM.md *Public database*): one for every
/// account, its default zone only; any account and a signed-out device read and query it,
/// an account changes only the records it created; no change feeds, no database or zone
/// subscriptions; query subscriptions push to each subscribed account's devices.
@Suite struct PublicDatabaseTests {
    static let zone = ZoneID.defaultZone(of: "alice")
    static let signedOut = CloudClient(device: "kiosk", account: nil)

    static func post(_ name: String, _ text: String, tag: String? = nil) -> CloudRecord {
        var record = CloudRecord(recordType: "Post", recordName: name, zone: zone)
        record.fields["text"] = .string(text)
        record.changeTag = tag
        return record
    }

    @discardableResult
    static func modify(
        _ fixture: CloudFixture, saves: [CloudRecord] = [], deletes: [String] = [],
        from client: CloudClient
    ) -> CloudOutcome {
        fixture.send(
            .modifyRecords(
                scope: .publicDatabase, zone: zone,
                saves: saves.map { RecordSave(record: $0, changedKeys: $0.sortedKeys) },
                deletes: deletes, policy: .ifServerRecordUnchanged, atomic: true),
            from: client)
    }

    static func fetch(_ fixture: CloudFixture, _ names: [String], from client: CloudClient)
        -> [ItemResult] {
        fixture.send(.fetchRecords(scope: .publicDatabase, zone: zone, names: names),
            from: client).response.items
    }

    @Test func twoAccountsSeeEachOthersRecordsAndNotTheirPrivateOnes() {
        let fixture = CloudFixture()
        let saved = Self.modify(fixture, saves: [Self.post("p1", "hello")], from: fixture.phone)
        #expect(saved.response.items.first?.savedRecord?.zone == .publicZone)
        Self.modify(fixture, saves: [Self.post("p2", "hi")], from: fixture.desktop)
        let bobReads = Self.fetch(fixture, ["p1", "p2"], from: fixture.desktop)
        #expect(bobReads.compactMap(\.savedRecord).map(\.recordName) == ["p1", "p2"])
        // Neither private database holds them.
        let privately = fixture.send(
            .fetchRecords(scope: .privateDatabase, zone: Self.zone, names: ["p1"]),
            from: fixture.phone)
        #expect(privately.response.items.first?.code == .unknownItem)
    }

    @Test func onlyTheCreatorChangesOrDeletesARecord() {
        let fixture = CloudFixture()
        let saved = Self.modify(fixture, saves: [Self.post("p1", "hello")], from: fixture.phone)
        let tag = saved.response.items.first?.savedRecord?.changeTag
        let edit = Self.post("p1", "changed by bob", tag: tag)
        let refused = Self.modify(fixture, saves: [edit], from: fixture.desktop)
        #expect(refused.response.items.first?.code == .permissionFailure)
        #expect(refused.notes("access.refused").first?.detail("reason") == "not-creator")
        let deleteRefused = Self.modify(fixture, deletes: ["p1"], from: fixture.desktop)
        #expect(deleteRefused.response.items.first?.code == .permissionFailure)
        // Another device of the creator's account may: the account created it.
        let byLaptop = Self.modify(fixture, saves: [Self.post("p1", "by laptop", tag: tag)],
            from: fixture.laptop)
        #expect(byLaptop.response.items.first?.savedRecord != nil)
        // A stale tag is a conflict, as in the private database.
        let stale = Self.modify(fixture, saves: [Self.post("p1", "stale", tag: tag)],
            from: fixture.phone)
        #expect(stale.response.items.first?.code == .serverRecordChanged)
        #expect(Self.modify(fixture, deletes: ["p1"], from: fixture.phone).response.items.first?
            .isDeleted == true)
        // Deleted, the name is free: bob creates it and owns it now.
        let bobsNow = Self.modify(fixture, saves: [Self.post("p1", "bob's")], from: fixture.desktop)
        #expect(bobsNow.response.items.first?.savedRecord != nil)
        #expect(Self.modify(fixture, deletes: ["p1"], from: fixture.phone).response.items.first?
            .code == .permissionFailure)
    }

    /// One refused item leaves the others of the request applied (the default zone is never
    /// atomic), each result in request order.
    @Test func aRefusedItemFailsAloneInRequestOrder() {
        let fixture = CloudFixture()
        Self.modify(fixture, saves: [Self.post("p1", "alice's")], from: fixture.phone)
        let mixed = Self.modify(fixture, saves: [Self.post("b1", "new"), Self.post("p1", "x")],
            deletes: ["p1"], from: fixture.desktop)
        let items = mixed.response.items
        #expect(items.count == 3)
        #expect(items[0].savedRecord?.recordName == "b1")
        #expect(items[1].code == .permissionFailure)
        #expect(items[2].code == .permissionFailure)
    }

    @Test func signedOutReadsAndQueriesButCannotWrite() {
        let fixture = CloudFixture()
        Self.modify(fixture, saves: [Self.post("p1", "hello")], from: fixture.phone)
        let read = Self.fetch(fixture, ["p1"], from: Self.signedOut)
        #expect(read.first?.savedRecord?.fields["text"] == .string("hello"))
        let query = fixture.send(
            .queryRecords(scope: .publicDatabase, RecordQuery(recordType: "Post"),
                resultsLimit: 0, cursor: nil),
            from: Self.signedOut)
        #expect(query.response == .recordsQueried(
            [fixture.cloud.record(named: "p1", in: .publicZone)!], cursor: nil))
        let write = Self.modify(fixture, saves: [Self.post("p2", "x")], from: Self.signedOut)
        #expect(write.response.failure?.code == .notAuthenticated)
        let subscribe = fixture.send(
            .saveQuerySubscription(scope: .publicDatabase,
                QuerySubscription(id: "posts", recordType: "Post")),
            from: Self.signedOut)
        #expect(subscribe.response.failure?.code == .notAuthenticated)
    }

    @Test func zonesCannotBeSavedOrDeletedAndCustomZonesDoNotExist() {
        let fixture = CloudFixture()
        let custom = ZoneID(owner: "alice", name: "Posts")
        let save = fixture.send(.modifyZones(scope: .publicDatabase, save: [custom], delete: []),
            from: fixture.phone)
        #expect(save.response.failure?.code == .invalidArguments)
        let delete = fixture.send(
            .modifyZones(scope: .publicDatabase, save: [], delete: [Self.zone]),
            from: fixture.phone)
        #expect(delete.response.failure?.code == .invalidArguments)
        var record = Self.post("p1", "x")
        record.zone = custom
        let write = fixture.send(
            .modifyRecords(scope: .publicDatabase, zone: custom, saves: [newSave(record)],
                deletes: [], policy: .ifServerRecordUnchanged, atomic: false),
            from: fixture.phone)
        #expect(write.response.items.first?.code == .zoneNotFound)
        let fetched = fixture.send(.fetchZone(scope: .publicDatabase, zone: Self.zone),
            from: Self.signedOut)
        #expect(fetched.response == .zoneFetched(.publicZone))
        #expect(fixture.send(.fetchZone(scope: .publicDatabase, zone: custom),
            from: fixture.phone).response.failure?.code == .zoneNotFound)
    }

    @Test func changeFetchesAndDatabaseAndZoneSubscriptionsAreRefused() {
        let fixture = CloudFixture()
        let requests: [CloudRequest] = [
            .fetchDatabaseChanges(scope: .publicDatabase, token: nil),
            .fetchZoneChanges(scope: .publicDatabase, zone: Self.zone, token: nil,
                resultsLimit: 0),
            .saveDatabaseSubscription(scope: .publicDatabase),
            .saveNamedDatabaseSubscription(scope: .publicDatabase,
                DatabaseSubscription(id: "all")),
            .saveZoneSubscription(scope: .publicDatabase, ZoneSubscription(id: "z",
                zone: Self.zone)),
        ]
        for request in requests {
            let outcome = fixture.send(request, from: fixture.phone)
            #expect(outcome.response.failure?.code == .invalidArguments, "\(request.kind)")
            #expect(outcome.response.failure?.message.contains("public database") == true)
        }
    }

    /// bob's subscription fires on alice's post: bob's devices get the push, alice's do not
    /// (she has none), and the device that saved it never does.
    @Test func aQuerySubscriptionPushesAcrossAccounts() {
        let fixture = CloudFixture()
        let posts = QuerySubscription(id: "posts", recordType: "Post", firesOnUpdate: false,
            firesOnDeletion: false)
        let saved = fixture.send(.saveQuerySubscription(scope: .publicDatabase, posts),
            from: fixture.desktop)
        #expect(saved.response == .subscriptionSaved)
        #expect(saved.notes.first?.detail("scope") == "public")
        fixture.send(.fetchSubscription(scope: .publicDatabase, id: "posts"),
            from: fixture.laptop)
        #expect(fixture.send(.fetchSubscription(scope: .publicDatabase, id: "posts"),
            from: fixture.laptop).response.failure?.code == .unknownItem)
        let created = Self.modify(fixture, saves: [Self.post("p1", "hello")], from: fixture.phone)
        #expect(created.pushes == ["desktop"])
        let tag = created.response.items.first?.savedRecord?.changeTag
        let updated = Self.modify(fixture, saves: [Self.post("p1", "again", tag: tag)],
            from: fixture.phone)
        #expect(updated.pushes.isEmpty, "the subscription does not fire on updates")
        let own = Self.modify(fixture, saves: [Self.post("b1", "mine")], from: fixture.desktop)
        #expect(own.pushes.isEmpty, "never the originator")
        #expect(fixture.cloud.publicSubscriptions(of: "bob") == [posts])
        #expect(fixture.cloud.subscriptions(of: "bob", .publicDatabase) == [.query(posts)])
        #expect(fixture.cloud.subscriptions(of: "alice", .publicDatabase).isEmpty)
        let deleted = fixture.send(.deleteSubscription(scope: .publicDatabase, id: "posts"),
            from: fixture.desktop)
        #expect(deleted.response == .subscriptionDeleted)
        #expect(Self.modify(fixture, saves: [Self.post("p2", "x")], from: fixture.phone)
            .pushes.isEmpty)
    }

    /// A predicate narrows the pushes; a `firesOnce` subscription is deleted when it fires,
    /// with a note; each account lists only its own.
    @Test func predicatesAndFiresOnceAsInThePrivateDatabase() {
        let fixture = CloudFixture()
        let hello = QuerySubscription(id: "hello", recordType: "Post",
            predicate: .compare(key: "text", .equal, .string("hello")), firesOnce: true)
        fixture.send(.saveQuerySubscription(scope: .publicDatabase, hello), from: fixture.desktop)
        fixture.send(.saveQuerySubscription(scope: .publicDatabase,
            QuerySubscription(id: "mine", recordType: "Post")), from: fixture.phone)
        let other = Self.modify(fixture, saves: [Self.post("p1", "bye")], from: fixture.laptop)
        #expect(other.pushes == ["phone"], "alice's subscription only; not the originator")
        let match = Self.modify(fixture, saves: [Self.post("p2", "hello")], from: fixture.laptop)
        #expect(match.pushes == ["desktop", "phone"])
        let deleted = match.notes("subscription.deleted")
        #expect(deleted.map { $0.detail("reason") } == ["fired-once"])
        #expect(deleted.first?.detail("scope") == "public")
        let listed = fixture.send(.fetchAllSubscriptions(scope: .publicDatabase),
            from: fixture.desktop)
        #expect(listed.response == .subscriptionsFetched([]))
        #expect(fixture.send(.fetchAllSubscriptions(scope: .publicDatabase), from: fixture.tablet)
            .response == .subscriptionsFetched([.query(QuerySubscription(id: "mine",
                recordType: "Post"))]))
    }

    @Test func theSnapshotShowsPublicRecordsAndTheirCreators() {
        let fixture = CloudFixture()
        let before = fixture.cloud.snapshot().description
        #expect(!before.contains("public"))
        Self.modify(fixture, saves: [Self.post("p1", "hello")], from: fixture.phone)
        let snapshot = fixture.cloud.snapshot()
        #expect(snapshot.accounts.map(\.name) == ["alice", "bob"])
        #expect(snapshot.publicZone?.records.map(\.recordName) == ["p1"])
        #expect(snapshot.description.contains("public database\n  zone _defaultZone:(public)"))
        #expect(snapshot.description.hasSuffix("  creator p1 alice"))
    }
}
