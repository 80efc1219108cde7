import CloudSim
import Kernel
import Testing

/// The predicates `NSPredicate(format:)` brings to the server ([CKQuery]; docs/CLOUDSIM.md
/// *Queries*): `FALSEPREDICATE`, `BEGINSWITH` and `IN`, evaluated by the server for queries
/// and query subscriptions; the limit counts matches, not records read.
@Suite struct QueryPredicateFormTests {
    let queries = RecordQueryTests()

    @Test func falsePredicateMatchesNothing() {
        let fixture = queries.notesFixture()
        #expect(queries.query(fixture, .none).0 == [])
        #expect(queries.query(fixture, .and([.all, .none])).0 == [])
    }

    @Test func beginsWithMatchesAStringPrefixWithCaseCounting() {
        let fixture = queries.notesFixture()
        fixture.insert(
            fixture.note("n5", ["title": .string("Groceries")]),
            fixture.note("n6", ["title": .string("groceries list")]),
            fixture.note("n7", ["title": .int(5)]))
        #expect(queries.query(fixture, .beginsWith(key: "title", "Gro")).0 == ["n5"])
        #expect(queries.query(fixture, .beginsWith(key: "title", "gro")).0 == ["n6"])
        // An empty prefix matches every string field, and no other kind.
        #expect(queries.query(fixture, .beginsWith(key: "title", "")).0
            == ["n1", "n2", "n3", "n4", "n5", "n6"])
    }

    @Test func inMatchesAFieldEqualToOneOfTheValues() {
        let fixture = queries.notesFixture()
        #expect(queries.query(fixture, .in(key: "title", [.string("A"), .string("C")])).0
            == ["n1", "n3"])
        // Numbers compare as numbers; a missing key matches nothing.
        #expect(queries.query(fixture, .in(key: "rank", [.double(2), .int(9)])).0 == ["n2"])
        #expect(queries.query(fixture, .in(key: "rank", [])).0 == [])
        let listed = QueryPredicate.in(key: "rank", [.list([.int(1)])])
        #expect(listed.unsupportedPart == "rank IN (an asset or a list)")
    }

    /// `resultsLimit` counts matches: a page is full of matches while more remain.
    @Test func theLimitCountsMatches() {
        let fixture = CloudFixture()
        for index in 0..<10 {
            fixture.insert(fixture.note("n\(index)", ["even": .int(index % 2 == 0 ? 1 : 0)]))
        }
        let even = QueryPredicate.compare(key: "even", .equal, .int(1))
        let (first, cursor) = queries.query(fixture, even, limit: 2)
        #expect(first == ["n0", "n2"])
        let (second, _) = queries.query(fixture, even, limit: 2, cursor: cursor)
        #expect(second == ["n4", "n6"])
    }

    @Test func aQuerySubscriptionWithInFiresForTheListedValuesOnly() {
        let subscription = QuerySubscription(
            id: "colours", recordType: "Note",
            predicate: .in(key: "colour", [.string("red"), .string("blue")]))
        let fixture = QuerySubscriptionPredicateTests().subscribed(subscription)
        let green = fixture.modify(
            saves: [newSave(fixture.note("n1", ["colour": .string("green")]))])
        #expect(green.pushes.isEmpty)
        let red = fixture.modify(saves: [newSave(fixture.note("n2", ["colour": .string("red")]))])
        #expect(red.pushes == ["laptop"])
    }
}
