@testable import CloudSim
import Testing

/// `RecordNameIndex`, the one open-addressing index of the record tables: it must find every
/// name's position through insertions, growth and removals that move the last entry, also
/// when every name has the same hash.
@Suite struct RecordNameIndexTests {
    /// A dense table of names over the index, as its owners keep one, with the hash it files
    /// names under (a fixed one makes every probe walk one run of collisions).
    struct Table {
        var names: [String] = []
        var index = RecordNameIndex()
        let hash: (String) -> Int

        init(hash: @escaping (String) -> Int = { RecordNameHash.hash($0) }) {
            self.hash = hash
        }

        /// The name's position and its slot, or the empty slot that ended the probe.
        func find(_ name: String) -> (slot: Int, position: Int?) {
            guard var probe = index.probe(hash(name)) else { return (-1, nil) }
            while let position = index.next(&probe) {
                if names[position] == name { return (probe.slot, position) }
            }
            return (probe.slot, nil)
        }

        mutating func insert(_ name: String) {
            precondition(find(name).position == nil)
            index.insert(names.count, hash: hash(name), count: names.count + 1)
            names.append(name)
        }

        mutating func remove(_ name: String) {
            let found = find(name)
            guard let position = found.position else { return }
            let last = names.count - 1
            index.remove(at: found.slot, movingLast: last, lastHash: hash(names[last]))
            names[position] = names[last]
            names.removeLast()
        }

        /// Whether every name finds its own position, and a name never filed finds none.
        func findsEveryName() -> Bool {
            names.indices.allSatisfy { find(names[$0]).position == $0 }
                && find("never filed").position == nil
        }
    }

    @Test func anEmptyIndexHasNoSlotsAndFindsNothing() {
        let table = Table()
        #expect(table.index.slotCount == 0)
        #expect(table.index.probe(42) == nil)
        #expect(table.find("a").position == nil)
        table.index.deallocate()
    }

    @Test func insertsAndFindsEachNameAtItsPosition() {
        var table = Table()
        for name in ["a", "b", "c"] { table.insert(name) }
        #expect(table.index.slotCount == 16)
        #expect(table.find("b").position == 1)
        #expect(table.findsEveryName())
        table.index.deallocate()
    }

    @Test func aRemovalMovesTheLastEntryIntoTheHole() {
        var table = Table()
        for name in ["a", "b", "c", "d"] { table.insert(name) }
        table.remove("b")
        #expect(table.names == ["a", "d", "c"])
        #expect(table.find("d").position == 1)
        #expect(table.find("b").position == nil)
        table.remove("c")
        #expect(table.names == ["a", "d"])
        #expect(table.findsEveryName())
        table.index.deallocate()
    }

    @Test func growsPastThreeQuartersWithoutLosingAName() {
        var table = Table()
        for number in 0..<12 { table.insert("r\(number)") }
        #expect(table.index.slotCount == 16)
        table.insert("r12")
        #expect(table.index.slotCount == 32)
        for number in 13..<1000 { table.insert("r\(number)") }
        #expect(table.index.slotCount == 2048)
        #expect(table.findsEveryName())
        table.index.deallocate()
    }

    @Test func collisionsOfOneFixedHashAreToldApartByName() {
        var table = Table(hash: { _ in 7 })
        for number in 0..<40 { table.insert("r\(number)") }
        #expect(table.findsEveryName())
        // Removals from the middle of the run shift the rest back: no name is lost.
        for number in stride(from: 0, to: 40, by: 3) { table.remove("r\(number)") }
        #expect(table.names.count == 26)
        #expect(table.findsEveryName())
        #expect(table.find("r3").position == nil)
        table.insert("r3")
        #expect(table.findsEveryName())
        table.index.deallocate()
    }

    /// A long deterministic mix of insertions and removals, checked after each step, with the
    /// names' own hashes and with hashes whose low bits (the home slot) all agree.
    @Test(arguments: [0, 16])
    func answersThroughAnyMixOfInsertionsAndRemovals(shift: Int) {
        var table = Table(hash: { RecordNameHash.hash($0) << shift })
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let name = "n\((state >> 33) % 97)"
            if table.find(name).position == nil {
                table.insert(name)
            } else {
                table.remove(name)
            }
            #expect(table.findsEveryName())
        }
        table.index.deallocate()
    }

    @Test func aCopyIsIndependentOfItsOriginal() {
        var table = Table()
        for name in ["a", "b"] { table.insert(name) }
        var copy = table
        copy.index = table.index.copy()
        copy.insert("c")
        table.remove("a")
        #expect(copy.findsEveryName())
        #expect(table.findsEveryName())
        #expect(copy.find("a").position == 0)
        table.index.deallocate()
        copy.index.deallocate()
    }
}
