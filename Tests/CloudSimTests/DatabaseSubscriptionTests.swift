import CloudSim
import Kernel
import Testing

/// Named database subscriptions ([CKDatabaseSubscription]; docs/CLOUDSIM.md
/// *Subscriptions*): saved under their ID in the private or the shared database, they push the
/// account's registered devices as the engines' database subscription does.
@Suite struct DatabaseSubscriptionTests {
    static let named = DatabaseSubscription(id: "changes")

    @Test func aDatabaseSubscriptionIsSavedNotedAndFoundByID() {
        let fixture = CloudFixture()
        let saved = fixture.send(
            .saveNamedDatabaseSubscription(scope: .privateDatabase, Self.named),
            from: fixture.laptop)
        #expect(saved.response == .subscriptionSaved)
        #expect(saved.noteKinds == ["subscription.saved"])
        #expect(saved.notes.first?.detail("subscription") == "changes")
        #expect(saved.notes.first?.detail("scope") == DatabaseScope.privateDatabase.rawValue)
        let found = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "changes"), from: fixture.phone)
        #expect(found.response == .namedSubscriptionFetched(.database(Self.named)))
        // Per database: the shared database has none of that ID, nor has bob.
        let shared = fixture.send(
            .fetchSubscription(scope: .sharedDatabase, id: "changes"), from: fixture.phone)
        #expect(shared.response.failure?.code == .unknownItem)
        let bob = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "changes"), from: fixture.desktop)
        #expect(bob.response.failure?.code == .unknownItem)
    }

    @Test func aCustomZoneChangePushesTheRegisteredDevicesButNotTheDefaultZone() {
        let fixture = CloudFixture()
        fixture.send(
            .saveNamedDatabaseSubscription(scope: .privateDatabase, Self.named),
            from: fixture.laptop)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes == ["laptop"])
        let inDefault = CloudRecord(
            recordType: "Note", recordName: "d1", zone: .defaultZone(of: "alice"))
        #expect(fixture.modify(saves: [newSave(inDefault)], in: .defaultZone(of: "alice"))
            .pushes.isEmpty)
        // The originator is never pushed.
        #expect(fixture.modify(saves: [newSave(fixture.note("n2"))], from: fixture.laptop)
            .pushes.isEmpty)
    }

    @Test func pushesMergeTheEnginesSubscribersWithTheRegisteredDevicesSorted() {
        let fixture = CloudFixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.tablet)
        fixture.send(
            .saveNamedDatabaseSubscription(scope: .privateDatabase, Self.named),
            from: fixture.laptop)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes
            == ["laptop", "tablet"])
        #expect(fixture.cloud.subscribedDevices(of: "alice", scope: .privateDatabase)
            == ["laptop", "tablet"])
    }

    @Test func theSharedDatabasesSubscriptionPushesTheParticipantsDevices() {
        let fixture = CloudFixture()
        fixture.makeTree()
        fixture.shareAndAccept()
        let saved = fixture.send(
            .saveNamedDatabaseSubscription(scope: .sharedDatabase, Self.named),
            from: fixture.desktop)
        #expect(saved.response == .subscriptionSaved)
        // bob's phone only fetches it, and is registered too.
        let all = fixture.send(
            .fetchAllSubscriptions(scope: .sharedDatabase), from: fixture.bobPhone)
        #expect(all.response == .subscriptionsFetched([.database(Self.named)]))
        let edit = fixture.modify(saves: [fixture.edit("n1", ["title": .string("B")])])
        #expect(edit.pushes == ["bobPhone", "desktop"])
        // A change outside the share reaches no participant.
        #expect(fixture.modify(saves: [fixture.edit("x1", ["title": .string("Y")])])
            .pushes.isEmpty)
    }

    @Test func fetchingByIDOrAllRegistersTheDevice() {
        let fixture = CloudFixture()
        fixture.send(
            .saveNamedDatabaseSubscription(scope: .privateDatabase, Self.named),
            from: fixture.laptop)
        fixture.send(.fetchAllSubscriptions(scope: .privateDatabase), from: fixture.tablet)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes
            == ["laptop", "tablet"])
        // A fetch of an unknown ID registers the device as well.
        fixture.send(.fetchSubscription(scope: .privateDatabase, id: "none"), from: fixture.phone)
        #expect(fixture.modify(saves: [newSave(fixture.note("n2"))], from: fixture.laptop)
            .pushes == ["phone", "tablet"])
    }
}
