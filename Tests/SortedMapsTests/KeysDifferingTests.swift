import SortedMaps
import Testing

/// `forEachKeyDiffering(from:_:)` names, in key order, exactly the keys on which two maps
/// disagree (one holds the key, or both with unequal values), as two dictionaries compared key
/// by key would.
@Suite struct KeysDifferingTests {
    static let pool = ["", "a", "body", "title", "zeta", "a much longer key than fifteen bytes",
                       "\u{E9}t\u{E9}", "e\u{301}t\u{E9}", "日付"]

    static func differing(_ mine: SortedMap<String, Int>, _ theirs: SortedMap<String, Int>)
        -> [String]
    {
        var keys: [String] = []
        mine.forEachKeyDiffering(from: theirs) { keys.append($0) }
        return keys
    }

    static func expected(_ mine: [String: Int], _ theirs: [String: Int]) -> [String] {
        Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
    }

    @Test func randomPairsMatchADictionaryComparison() {
        var draw = SortedMapTests.Draw(state: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<2_000 {
            var mine: [String: Int] = [:]
            var theirs: [String: Int] = [:]
            for key in Self.pool {
                switch draw.next(5) {
                case 0: mine[key] = draw.next(3)
                case 1: theirs[key] = draw.next(3)
                case 2: (mine[key], theirs[key]) = (draw.next(3), draw.next(3))
                default: break
                }
            }
            let want = Self.expected(mine, theirs)
            #expect(Self.differing(SortedMap(mine), SortedMap(theirs)) == want)
            // Symmetric: the same keys whichever map asks.
            #expect(Self.differing(SortedMap(theirs), SortedMap(mine)) == want)
        }
    }

    @Test func mapsSharingStorageOrEmptyDifferNowhere() {
        var map = SortedMap<String, Int>()
        #expect(Self.differing(map, SortedMap()).isEmpty)
        map["title"] = 1
        map["body"] = 2
        let copy = map
        #expect(Self.differing(map, copy).isEmpty)
        // Equal pairs in separate storage: walked, and still nothing differs.
        #expect(Self.differing(map, SortedMap(["body": 2, "title": 1])).isEmpty)
        #expect(Self.differing(map, SortedMap()) == ["body", "title"])
        #expect(Self.differing(SortedMap(), map) == ["body", "title"])
    }

    @Test func aThrowingBodyStopsTheWalk() {
        struct Stop: Error {}
        let mine = SortedMap(["a": 1, "b": 1, "c": 1])
        var seen: [String] = []
        #expect(throws: Stop.self) {
            try mine.forEachKeyDiffering(from: SortedMap()) { key in
                seen.append(key)
                if key == "b" { throw Stop() }
            }
        }
        #expect(seen == ["a", "b"])
    }
}
