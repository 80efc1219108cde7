import SortedMaps
import Testing

/// `SortedMap` answers like the `Dictionary` it replaced, whatever its length: every lookup,
/// the count, the keys and values, equality and hashing; and it walks its pairs in key order.
@Suite struct SortedMapTests {
    /// A seeded generator of the test's choices (the same draw in every run).
    struct Draw {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Keys short and long, ASCII and not, and two spellings of one key ("é" composed and
    /// decomposed are equal Strings: one key, as in a Dictionary).
    static let keyPool: [String] = (0..<30).map { "k\($0)" } + [
        "", "title", "body", "a much longer attribute name than fifteen bytes",
        "\u{E9}t\u{E9}", "e\u{301}t\u{E9}", "日付", "Z", "z", "CD_title",
    ]

    /// Checks the map against the dictionary it must behave like.
    static func expectSame(
        _ map: SortedMap<String, Int>, _ reference: [String: Int],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(map.count == reference.count, sourceLocation: sourceLocation)
        #expect(map.isEmpty == reference.isEmpty, sourceLocation: sourceLocation)
        let sortedKeys = reference.keys.sorted()
        #expect(Array(map.keys) == sortedKeys, sourceLocation: sourceLocation)
        #expect(Array(map.values) == sortedKeys.map { reference[$0]! },
                sourceLocation: sourceLocation)
        #expect(map.map(\.key) == sortedKeys, sourceLocation: sourceLocation)
        for key in keyPool {
            #expect(map[key] == reference[key], "\(key)", sourceLocation: sourceLocation)
            #expect(map.keys.contains(key) == (reference[key] != nil),
                    sourceLocation: sourceLocation)
            #expect(map[key, default: -1] == reference[key, default: -1],
                    sourceLocation: sourceLocation)
            #expect((map.index(forKey: key) != nil) == (reference[key] != nil),
                    sourceLocation: sourceLocation)
        }
        // The same pairs built another way: equal, and hashed alike.
        let fresh = SortedMap(reference)
        #expect(fresh == map, sourceLocation: sourceLocation)
        #expect(fresh.hashValue == map.hashValue, sourceLocation: sourceLocation)
        #expect(fresh.dictionary == reference, sourceLocation: sourceLocation)
    }

    @Test func randomOperationsMatchADictionary() {
        var draw = Draw(state: 0x9E37_79B9_7F4A_7C15)
        var map = SortedMap<String, Int>()
        var reference: [String: Int] = [:]
        for step in 0..<6_000 {
            // Mostly a few keys (as a model's values), now and then many (the binary search).
            let pool = step % 1_000 < 700 ? 6 : Self.keyPool.count
            let key = Self.keyPool[draw.next(pool)]
            switch draw.next(12) {
            case 0:
                #expect(map.removeValue(forKey: key) == reference.removeValue(forKey: key))
            case 1:
                map[key] = nil
                reference[key] = nil
            case 2:
                let replaced = reference.updateValue(step, forKey: key)
                #expect(map.updateValue(step, forKey: key) == replaced)
            case 3:
                map[key, default: 100] += 1
                reference[key, default: 100] += 1
            case 4:
                map[key]? += 7
                reference[key]? += 7
            case 5:
                let other = Dictionary(
                    [(Self.keyPool[draw.next(pool)], step), (Self.keyPool[draw.next(pool)], -step)],
                    uniquingKeysWith: +)
                map.merge(other) { $0 &+ $1 }
                reference.merge(other) { $0 &+ $1 }
            case 6 where step % 50 == 0:
                let bound = draw.next(4_000)
                map = map.filter { $0.value < bound }
                reference = reference.filter { $0.value < bound }
            case 7 where step % 30 == 0:
                map = map.compactMapValues { $0 % 3 == 0 ? nil : $0 / 2 }
                reference = reference.compactMapValues { $0 % 3 == 0 ? nil : $0 / 2 }
            case 8 where step % 40 == 0:
                map = map.mapValues { $0 - 1 }
                reference = reference.mapValues { $0 - 1 }
            case 9 where step % 200 == 0:
                map.removeAll()
                reference.removeAll()
            default:
                map[key] = step
                reference[key] = step
            }
            if step % 13 == 0 { Self.expectSame(map, reference) }
        }
        Self.expectSame(map, reference)
    }

    @Test func walksInKeyOrder() {
        let map: SortedMap<String, Int> = ["title": 1, "body": 2, "attachment": 3, "Zebra": 4]
        var walked: [String] = []
        for (key, _) in map { walked.append(key) }
        #expect(walked == ["Zebra", "attachment", "body", "title"])
        #expect(map.first?.key == "Zebra")
        #expect(map.description == #"["Zebra": 4, "attachment": 3, "body": 2, "title": 1]"#)
        #expect(SortedMap<String, Int>().description == "[:]")
    }

    @Test func asksEachKeyInOrderUntilOneFails() {
        let map: SortedMap<String, Int> = ["title": 1, "body": 2, "attachment": 3]
        var asked: [String] = []
        #expect(map.allKeysSatisfy { asked.append($0); return true })
        #expect(asked == ["attachment", "body", "title"])
        asked = []
        #expect(!map.allKeysSatisfy { asked.append($0); return $0 != "body" })
        #expect(asked == ["attachment", "body"])
        #expect(SortedMap<String, Int>().allKeysSatisfy { _ in false })
    }

    @Test func buildsAsADictionaryBuilds() {
        let pairs = [("b", 1), ("a", 2), ("b", 3)]
        let combined = SortedMap(pairs, uniquingKeysWith: +)
        #expect(combined == ["a": 2, "b": 4])
        let kept = SortedMap(pairs) { first, _ in first }
        #expect(kept == ["a": 2, "b": 1])
        #expect(SortedMap(uniqueKeysWithValues: [("y", 1), ("x", 2)]) == ["x": 2, "y": 1])
        let merged = kept.merging(["c": 9, "a": 1] as SortedMap) { $1 }
        #expect(merged == ["a": 1, "b": 1, "c": 9])
        #expect(merged.contains { $0.key == "c" } && merged.allSatisfy { $0.value > 0 })
        #expect(merged.keys == (["a": 0, "b": 0, "c": 0] as SortedMap<String, Int>).keys)
    }

    @Test func changesAValueInPlace() {
        // A value changed through a subscript is not copied first (its storage stays unique).
        var map: SortedMap<Int, [Int]> = [1: [10], 2: [20]]
        map[1]?.append(11)
        map[3, default: []].append(30)
        map[2, default: []].append(21)
        #expect(map == [1: [10, 11], 2: [20, 21], 3: [30]])
        map[1] = nil
        #expect(Array(map.keys) == [2, 3])
        let position = map.index(forKey: 3)!
        #expect(map[position].value == [30])
        #expect(map.remove(at: position).key == 3)
        #expect(map == [2: [20, 21]])
        #expect(map.modifyValue(forKey: 2) { $0.append(22); return $0.count } == 3)
        #expect(map.modifyValue(forKey: 5) { _ in true } == nil)
        #expect(map == [2: [20, 21, 22]])
        #expect(map.readValue(forKey: 2) { $0.count } == 3)
        #expect(map.readValue(forKey: 4) { $0.count } == nil)
    }

    /// `readValue` reaches a value behind keys of any size and values of any alignment.
    @Test func readsAValueInPlace() {
        let texts: SortedMap<String, String> = ["b": "two", "a": "one", "c": "three"]
        #expect(texts.readValue(forKey: "c") { $0 + "!" } == "three!")
        let bytes: SortedMap<UInt8, Double> = [3: 0.5, 1: 1.5]
        #expect(bytes.readValue(forKey: 1) { $0 * 2 } == 3)
        let wide: SortedMap<Int, UInt8> = [7: 1, 9: 2]
        #expect(wide.readValue(forKey: 9) { $0 } == 2)
    }

    @Test func holdsTwoPairsInOneSmallAllocation() {
        var map = SortedMap<String, Int>(minimumCapacity: 2)
        map["title"] = 1
        map["body"] = 2
        #expect(map.capacity == 2)
    }
}
