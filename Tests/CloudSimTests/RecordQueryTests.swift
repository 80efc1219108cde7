import CloudSim
import Kernel
import Testing

/// [CKQueryOperation], [CKQuery] (docs/CLOUDSIM.md *Queries*): the records of a type that
/// the predicate matches, in zone then record-name order, paged by cursor; predicates
/// outside the modelled subset are refused, never guessed.
@Suite struct RecordQueryTests {
    func notesFixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.insert(
            fixture.note("n3", ["title": .string("C"), "rank": .int(3)]),
            fixture.note("n1", ["title": .string("A"), "rank": .int(1)]),
            fixture.note("n2", ["title": .string("B"), "rank": .int(2)]),
            fixture.note("n4", ["title": .string("D")]),
            fixture.note("f1", ["name": .string("A")], type: "Folder"))
        return fixture
    }

    func query(
        _ fixture: CloudFixture, _ predicate: QueryPredicate = .all, limit: Int = 0,
        cursor: QueryCursor? = nil, zone: ZoneID? = nil
    ) -> ([String], QueryCursor?) {
        let request = CloudRequest.queryRecords(
            scope: .privateDatabase,
            RecordQuery(recordType: "Note", zone: zone ?? fixture.zone, predicate: predicate),
            resultsLimit: limit, cursor: cursor)
        guard case .recordsQueried(let records, let next) = fixture.send(
            request, from: fixture.phone).response
        else { return ([], nil) }
        return (records.map(\.recordName), next)
    }

    @Test func truePredicateGivesEveryRecordOfTheTypeInNameOrder() {
        let fixture = notesFixture()
        #expect(query(fixture).0 == ["n1", "n2", "n3", "n4"])
        #expect(query(fixture).1 == nil)
    }

    @Test func comparisonsMatchByValueAndAMissingKeyMatchesNothing() {
        let fixture = notesFixture()
        #expect(query(fixture, .compare(key: "title", .equal, .string("B"))).0 == ["n2"])
        #expect(query(fixture, .compare(key: "rank", .greaterOrEqual, .int(2))).0 == ["n2", "n3"])
        // An integer field compares with a double as a number.
        #expect(query(fixture, .compare(key: "rank", .less, .double(2.5))).0 == ["n1", "n2"])
        #expect(query(fixture, .compare(key: "title", .notEqual, .string("B"))).0
            == ["n1", "n3", "n4"])
        let both = QueryPredicate.and([
            .compare(key: "rank", .greater, .int(1)), .compare(key: "title", .less, .string("C")),
        ])
        #expect(query(fixture, both).0 == ["n2"])
    }

    @Test func pagesFollowTheCursorToTheEnd() {
        let fixture = notesFixture()
        let (first, cursor) = query(fixture, limit: 3)
        #expect(first == ["n1", "n2", "n3"])
        #expect(cursor?.lastRecordName == "n3")
        let (second, end) = query(fixture, limit: 3, cursor: cursor)
        #expect(second == ["n4"])
        #expect(end == nil)
        // A full last page has no cursor: nothing follows it.
        #expect(query(fixture, limit: 4).1 == nil)
    }

    @Test func withoutAZoneEveryZoneOfTheDatabaseIsSearched() {
        let fixture = notesFixture()
        let other = ZoneID(owner: "alice", name: "Other")
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        let inOther = CloudRecord(recordType: "Note", recordName: "a0", zone: other)
        fixture.modify(saves: [newSave(inOther)], in: other)
        let request = CloudRequest.queryRecords(
            scope: .privateDatabase, RecordQuery(recordType: "Note"), resultsLimit: 0,
            cursor: nil)
        guard case .recordsQueried(let records, _) = fixture.send(
            request, from: fixture.phone).response
        else {
            Issue.record("no query answer")
            return
        }
        let zones = [other, fixture.zone].sorted()
        let expected = zones.flatMap { zone in
            zone == other ? ["a0"] : ["n1", "n2", "n3", "n4"]
        }
        #expect(records.map(\.recordName) == expected)
    }

    @Test func unsupportedPredicatesAndScopesAreRefused() {
        let fixture = notesFixture()
        let ordering = CloudRequest.queryRecords(
            scope: .privateDatabase,
            RecordQuery(
                recordType: "Note", zone: fixture.zone,
                predicate: .compare(key: "tags", .less, .list([.string("x")]))),
            resultsLimit: 0, cursor: nil)
        #expect(fixture.send(ordering, from: fixture.phone).response.failure?.code
            == .invalidArguments)
        let shared = CloudRequest.queryRecords(
            scope: .sharedDatabase, RecordQuery(recordType: "Note", zone: fixture.zone),
            resultsLimit: 0, cursor: nil)
        #expect(fixture.send(shared, from: fixture.desktop).response.failure?.code
            == .invalidArguments)
        let missing = CloudRequest.queryRecords(
            scope: .privateDatabase,
            RecordQuery(recordType: "Note", zone: ZoneID(owner: "alice", name: "Missing")),
            resultsLimit: 0, cursor: nil)
        #expect(fixture.send(missing, from: fixture.phone).response.failure?.code
            == .zoneNotFound)
        let foreign = CloudRequest.queryRecords(
            scope: .privateDatabase, RecordQuery(recordType: "Note", zone: fixture.zone),
            resultsLimit: 0, cursor: nil)
        #expect(fixture.send(foreign, from: fixture.desktop).response.failure?.code
            == .zoneNotFound)
    }

    /// A `CKRecord.Reference` compares by the record it names, whatever its action.
    @Test func aReferenceMatchesByTheRecordItNames() {
        let fixture = notesFixture()
        fixture.insert(fixture.note("n5", ["folder": .reference("f1", action: .deleteSelf)]))
        let byName = QueryPredicate.compare(key: "folder", .equal, .reference("f1"))
        #expect(query(fixture, byName).0 == ["n5"])
        let other = QueryPredicate.compare(key: "folder", .notEqual, .reference("f1"))
        #expect(query(fixture, other).0 == [])
    }

    /// The inspection a scenario's `query` expectation reads follows every page, in every zone.
    @Test func recordsQueriedFollowsEveryPage() {
        let fixture = CloudFixture()
        let count = CloudService.queryPageSize * 2 + 5
        for index in 0..<count {
            fixture.insert(fixture.note("n\(index)", ["rank": .int(Int64(index))]))
        }
        let all = fixture.cloud.recordsQueried(RecordQuery(recordType: "Note"), of: "alice")
        #expect(all.records.count == count)
        #expect(all.refusal == nil)
        let high = fixture.cloud.recordsQueried(
            RecordQuery(recordType: "Note", predicate: .compare(key: "rank", .greaterOrEqual,
                .int(200))), of: "alice")
        #expect(high.records.count == 5)
        let refused = fixture.cloud.recordsQueried(
            RecordQuery(recordType: "Note", predicate: .compare(key: "rank", .less,
                .bytes([1]))), of: "alice")
        #expect(refused.refusal?.code == .invalidArguments)
        #expect(fixture.cloud.recordsQueried(RecordQuery(recordType: "Note"), of: "bob")
            .records.isEmpty)
    }
}
