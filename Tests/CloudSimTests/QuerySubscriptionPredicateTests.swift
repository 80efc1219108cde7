import CloudSim
import Kernel
import Testing

/// A query subscription's predicate and `firesOnce` ([CKQuerySubscription]; docs/CLOUDSIM.md
/// *Query subscriptions*): the predicate is evaluated on the record as saved, or as it was
/// for a deletion; a `firesOnce` subscription is deleted by the first change that fires it.
@Suite struct QuerySubscriptionPredicateTests {
    static let urgent = QuerySubscription(
        id: "urgent", recordType: "Note",
        predicate: .compare(key: "priority", .greater, .int(3)))

    func subscribed(_ subscription: QuerySubscription) -> CloudFixture {
        let fixture = CloudFixture()
        let saved = fixture.send(
            .saveQuerySubscription(scope: .privateDatabase, subscription), from: fixture.laptop)
        #expect(saved.response == .subscriptionSaved, "\(saved.response)")
        return fixture
    }

    @Test func onlyRecordsThePredicateMatchesPush() {
        let fixture = subscribed(Self.urgent)
        let low = fixture.modify(saves: [newSave(fixture.note("n1", ["priority": .int(1)]))])
        #expect(low.pushes.isEmpty)
        let high = fixture.modify(saves: [newSave(fixture.note("n2", ["priority": .int(5)]))])
        #expect(high.pushes == ["laptop"])
        // An update is judged on the record as saved.
        let raised = fixture.modify(saves: [fixture.edit("n1", ["priority": .int(4)])])
        #expect(raised.pushes == ["laptop"])
        let lowered = fixture.modify(saves: [fixture.edit("n2", ["priority": .int(2)])])
        #expect(lowered.pushes.isEmpty)
    }

    @Test func aDeletionIsJudgedOnTheRecordAsItWas() {
        let fixture = subscribed(Self.urgent)
        fixture.modify(saves: [
            newSave(fixture.note("n1", ["priority": .int(1)])),
            newSave(fixture.note("n2", ["priority": .int(9)])),
        ])
        #expect(fixture.modify(deletes: ["n1"]).pushes.isEmpty)
        #expect(fixture.modify(deletes: ["n2"]).pushes == ["laptop"])
    }

    @Test func aPredicateTheServerCannotEvaluateIsRefused() {
        let fixture = CloudFixture()
        let unordered = QuerySubscription(
            id: "bytes", recordType: "Note",
            predicate: .compare(key: "blob", .less, .bytes([1])))
        let refused = fixture.send(
            .saveQuerySubscription(scope: .privateDatabase, unordered), from: fixture.laptop)
        #expect(refused.response.failure?.code == .invalidArguments)
        #expect(fixture.cloud.querySubscriptions(of: "alice").isEmpty)
    }

    @Test func aFiresOnceSubscriptionIsDeletedByItsFirstPush() {
        let once = QuerySubscription(id: "once", recordType: "Note", firesOnce: true)
        let fixture = subscribed(once)
        #expect(fixture.modify(saves: [newSave(fixture.note("f1", type: "Folder"))])
            .pushes.isEmpty)
        let first = fixture.modify(saves: [newSave(fixture.note("n1"))])
        #expect(first.pushes == ["laptop"])
        let deleted = first.notes("subscription.deleted")
        #expect(deleted.map { $0.detail("subscription") } == ["once"])
        #expect(deleted.first?.detail("reason") == "fired-once")
        #expect(deleted.first?.detail("device") == "phone")
        #expect(fixture.cloud.querySubscriptions(of: "alice").isEmpty)
        #expect(fixture.modify(saves: [newSave(fixture.note("n2"))]).pushes.isEmpty)
        let fetched = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "once"), from: fixture.laptop)
        #expect(fetched.response.failure?.code == .unknownItem)
    }

    @Test func aFiresOnceSubscriptionGoesEvenWhenAZoneSubscriptionFiresToo() {
        let fixture = subscribed(QuerySubscription(
            id: "once", recordType: "Note", firesOnce: true))
        fixture.send(
            .saveZoneSubscription(
                scope: .privateDatabase, ZoneSubscription(id: "zone", zone: fixture.zone)),
            from: fixture.tablet)
        fixture.send(
            .saveQuerySubscription(
                scope: .privateDatabase, QuerySubscription(id: "other", recordType: "Note")),
            from: fixture.tablet)
        let first = fixture.modify(saves: [newSave(fixture.note("n1"))])
        #expect(first.pushes == ["laptop", "tablet"])
        #expect(first.notes("subscription.deleted").map { $0.detail("subscription") }
            == ["once"])
        #expect(fixture.cloud.querySubscriptions(of: "alice").map(\.id) == ["other"])
    }
}
