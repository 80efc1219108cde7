import CloudSim
import Kernel
import Testing

/// A query's sort keys ([CKQuery] `sortDescriptors`; docs/CLOUDSIM.md *Queries*): the server
/// orders the matches by them, then by zone and record name, and a cursor resumes after its
/// record's place in that order.
@Suite struct QuerySortTests {
    func fixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("a", ["rank": .int(2), "title": .string("Y")]))
        fixture.insert(fixture.note("b", ["rank": .int(1), "title": .string("Z")]))
        fixture.insert(fixture.note("c", ["rank": .int(2), "title": .string("X")]))
        fixture.insert(fixture.note("d", ["title": .string("W")]))
        fixture.insert(fixture.note("e", ["rank": .int(1), "title": .string("V")]))
        return fixture
    }

    func query(
        _ fixture: CloudFixture, _ sorts: [QuerySort], predicate: QueryPredicate = .all,
        limit: Int = 0, cursor: QueryCursor? = nil
    ) -> ([String], QueryCursor?) {
        let request = CloudRequest.queryRecords(
            scope: .privateDatabase,
            RecordQuery(recordType: "Note", predicate: predicate, sortedBy: sorts),
            resultsLimit: limit, cursor: cursor)
        guard case .recordsQueried(let records, let next) = fixture.send(
            request, from: fixture.phone).response
        else { return ([], nil) }
        return (records.map(\.recordName), next)
    }

    /// Every page after the first, followed by cursor.
    func pages(_ fixture: CloudFixture, _ sorts: [QuerySort], limit: Int) -> [[String]] {
        var (page, cursor) = query(fixture, sorts, limit: limit)
        var pages = [page]
        while let next = cursor {
            (page, cursor) = query(fixture, sorts, limit: limit, cursor: next)
            pages.append(page)
        }
        return pages
    }

    @Test func matchesOrderByTheKeysThenByName() {
        let fixture = fixture()
        let rank = QuerySort(key: "rank", ascending: true)
        // A missing value comes first; ties (b, e and a, c) by record name.
        #expect(query(fixture, [rank]).0 == ["d", "b", "e", "a", "c"])
        let descending = QuerySort(key: "rank", ascending: false)
        #expect(query(fixture, [descending]).0 == ["a", "c", "b", "e", "d"])
        let then = [descending, QuerySort(key: "title", ascending: true)]
        #expect(query(fixture, then).0 == ["c", "a", "e", "b", "d"])
        #expect(query(fixture, [QuerySort(key: "title", ascending: true)]).0
            == ["e", "d", "c", "a", "b"])
        let ranked = QueryPredicate.compare(key: "rank", .greaterOrEqual, .int(1))
        #expect(query(fixture, [descending], predicate: ranked).0 == ["a", "c", "b", "e"])
    }

    @Test func theCursorResumesInTheSortedOrder() {
        let fixture = fixture()
        let sorts = [QuerySort(key: "rank", ascending: false)]
        #expect(pages(fixture, sorts, limit: 2) == [["a", "c"], ["b", "e"], ["d"]])
        // A full last page has no cursor.
        #expect(query(fixture, sorts, limit: 5).1 == nil)
    }

    /// A cursor names a place in the order, not an index: records saved since the first page
    /// land in their place, before the cursor (not returned) or after it.
    @Test func recordsChangedBetweenPagesLandInTheirPlace() {
        let fixture = fixture()
        let sorts = [QuerySort(key: "rank", ascending: false)]
        let (first, cursor) = query(fixture, sorts, limit: 2)
        #expect(first == ["a", "c"])
        fixture.insert(
            fixture.note("f", ["rank": .int(9)]), fixture.note("g", ["rank": .int(0)]))
        #expect(query(fixture, sorts, limit: 0, cursor: cursor).0 == ["b", "e", "g", "d"])
    }

    @Test func creationAndModificationDatesAreSortKeys() {
        let fixture = fixture()
        fixture.modify(saves: [fixture.edit("b", ["title": .string("B")])])
        let created = QuerySort(key: QuerySort.creationDate, ascending: false)
        #expect(query(fixture, [created]).0 == ["e", "d", "c", "b", "a"])
        let modified = QuerySort(key: QuerySort.modificationDate, ascending: false)
        #expect(query(fixture, [modified]).0.first == "b")
    }

    @Test func valuesOfDifferentKindsOrderByKind() {
        let values: [CloudValue?] = [
            nil, .int(-1), .double(0.5), .int(3), .string("a"), .date(millisecondsSince1970: 0),
            .bytes([1]), .bytes([1, 0]), .reference("r"),
        ]
        for (index, value) in values.enumerated() {
            for (other, later) in values.enumerated() {
                let expected = index < other ? -1 : index == other ? 0 : 1
                #expect(QuerySort.order(value, later) == expected, "\(index) \(other)")
            }
        }
    }
}
