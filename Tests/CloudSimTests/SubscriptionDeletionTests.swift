import CloudSim
import Kernel
import Testing

/// Fetching every subscription of a database and deleting one by ID (docs/CLOUDSIM.md
/// *Subscriptions*; [CKModifySubscriptionsOperation]: deleting a subscription that does not
/// exist is an error, `unknownItem` here as for a fetch).
@Suite struct SubscriptionDeletionTests {
    /// alice's private database with one subscription of each kind, saved by the laptop, and
    /// the phone's database subscription of the engines.
    func everyKind() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.phone)
        let requests: [CloudRequest] = [
            .saveZoneSubscription(
                scope: .privateDatabase, ZoneSubscription(id: "b-zone", zone: fixture.zone)),
            .saveQuerySubscription(
                scope: .privateDatabase, QuerySubscription(id: "c-query", recordType: "Note")),
            .saveNamedDatabaseSubscription(
                scope: .privateDatabase, DatabaseSubscription(id: "a-database")),
        ]
        for request in requests {
            #expect(fixture.send(request, from: fixture.laptop).response == .subscriptionSaved)
        }
        return fixture
    }

    @Test func fetchingAllListsEveryKindSortedByIDPerDatabase() {
        let fixture = everyKind()
        let all = fixture.send(.fetchAllSubscriptions(scope: .privateDatabase), from: fixture.phone)
        guard case .subscriptionsFetched(let subscriptions) = all.response else {
            Issue.record("\(all.response)")
            return
        }
        #expect(subscriptions.map(\.id) == ["a-database", "b-zone", "c-query"])
        #expect(all.notes.isEmpty)
        let shared = fixture.send(
            .fetchAllSubscriptions(scope: .sharedDatabase), from: fixture.phone)
        #expect(shared.response == .subscriptionsFetched([]))
        #expect(fixture.cloud.subscriptions(of: "alice", .privateDatabase) == subscriptions)
    }

    @Test func eachKindIsDeletedByIDAndFiresNoMore() {
        let fixture = everyKind()
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes == ["laptop"])
        for id in ["b-zone", "c-query", "a-database"] {
            let deleted = fixture.send(
                .deleteSubscription(scope: .privateDatabase, id: id), from: fixture.tablet)
            #expect(deleted.response == .subscriptionDeleted)
            #expect(deleted.noteKinds == ["subscription.deleted"])
            #expect(deleted.notes.first?.detail("subscription") == id)
            #expect(deleted.notes.first?.detail("reason") == "deleted")
        }
        #expect(fixture.cloud.subscriptions(of: "alice", .privateDatabase).isEmpty)
        // No subscription of the laptop's fires; the engines' subscription still does.
        let after = fixture.modify(saves: [newSave(fixture.note("n2"))], from: fixture.tablet)
        #expect(after.pushes == ["phone"])
    }

    @Test func deletingOneOfTwoDatabaseSubscriptionsKeepsThePushes() {
        let fixture = everyKind()
        fixture.send(
            .saveNamedDatabaseSubscription(
                scope: .privateDatabase, DatabaseSubscription(id: "d-database")),
            from: fixture.tablet)
        fixture.send(.deleteSubscription(scope: .privateDatabase, id: "a-database"),
            from: fixture.laptop)
        fixture.send(.deleteSubscription(scope: .privateDatabase, id: "b-zone"),
            from: fixture.laptop)
        fixture.send(.deleteSubscription(scope: .privateDatabase, id: "c-query"),
            from: fixture.laptop)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes
            == ["laptop", "tablet"])
        fixture.send(.deleteSubscription(scope: .privateDatabase, id: "d-database"),
            from: fixture.laptop)
        #expect(fixture.modify(saves: [newSave(fixture.note("n2"))], from: fixture.laptop)
            .pushes == ["phone"])
    }

    @Test func anUnknownIDIsUnknownItemAndChangesNothing() {
        let fixture = everyKind()
        let missing = fixture.send(
            .deleteSubscription(scope: .privateDatabase, id: "missing"), from: fixture.phone)
        #expect(missing.response.failure?.code == .unknownItem)
        #expect(missing.response.failure?.message == "Subscription 'missing' not found")
        #expect(missing.notes.isEmpty)
        // Subscriptions are per database and per account.
        let shared = fixture.send(
            .deleteSubscription(scope: .sharedDatabase, id: "a-database"), from: fixture.phone)
        #expect(shared.response.failure?.code == .unknownItem)
        let bob = fixture.send(
            .deleteSubscription(scope: .privateDatabase, id: "b-zone"), from: fixture.desktop)
        #expect(bob.response.failure?.code == .unknownItem)
        #expect(fixture.cloud.subscriptions(of: "alice", .privateDatabase).count == 3)
        // Deleted twice: the second is unknown.
        fixture.send(
            .deleteSubscription(scope: .privateDatabase, id: "b-zone"), from: fixture.phone)
        let again = fixture.send(
            .deleteSubscription(scope: .privateDatabase, id: "b-zone"), from: fixture.phone)
        #expect(again.response.failure?.code == .unknownItem)
    }

    @Test func aSaveReplacesASubscriptionOfAnyKindWithTheSameID() {
        let fixture = everyKind()
        fixture.send(
            .saveNamedDatabaseSubscription(
                scope: .privateDatabase, DatabaseSubscription(id: "c-query")),
            from: fixture.laptop)
        fixture.send(
            .saveZoneSubscription(
                scope: .privateDatabase, ZoneSubscription(id: "a-database", zone: fixture.zone)),
            from: fixture.laptop)
        let kinds = fixture.cloud.subscriptions(of: "alice", .privateDatabase).map { kind in
            switch kind {
            case .query: return "query \(kind.id)"
            case .zone: return "zone \(kind.id)"
            case .database: return "database \(kind.id)"
            }
        }
        #expect(kinds == ["zone a-database", "zone b-zone", "database c-query"])
    }
}
