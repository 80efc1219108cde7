import CloudSim
import Kernel
import LocalStore
@testable import SDS
import Testing

/// The sync data's tables by record name: a `[String: Value]` in behaviour (checked against
/// one through thousands of random changes), with names listed sorted, and the hashes it
/// files them under consistent with equality.
@Suite struct RecordNameMapTests {
    @Test("it answers as a dictionary would, through random sets, removals and joins")
    func behavesAsADictionary() {
        var random = RandomStreams(seed: 11).stream("names")
        var map = RecordNameMap<Int>()
        var reference: [String: Int] = [:]
        // A few ASCII names (36 bytes, as the engines draw them), some short, one not ASCII.
        let names = (0..<40).map { index in
            index % 13 == 0 ? "Ω\(index)" : index % 3 == 0 ? "n\(index)"
                : "0000000\(index % 10)-ACE5-3815-6819-B508C3A74B\(100 + index)"
        }
        for step in 0..<5_000 {
            let name = names[Int(random.uniform(below: UInt64(names.count)))]
            switch random.uniform(below: 5) {
            case 0:
                map[name] = step
                reference[name] = step
            case 1:
                map[name] = nil
                reference[name] = nil
            case 2:
                #expect(map.removeValue(forKey: name) == reference.removeValue(forKey: name))
            case 3:
                map.withValue(of: name, default: { -1 }) { $0 += 1 }
                reference[name, default: -1] += 1
            default:
                map.setEntry(step % 2 == 0 ? nil : step, at: name)
                reference[name] = step % 2 == 0 ? nil : step
            }
            #expect(map[name] == reference[name])
            #expect(map.count == reference.count)
            #expect(map.isEmpty == reference.isEmpty)
        }
        #expect(map.names == reference.keys.sorted())
        for name in names { #expect(map[name] == reference[name]) }
    }

    @Test("an empty map answers and removes without a value; a literal fills it")
    func emptyAndLiteral() {
        var empty = RecordNameMap<String>()
        #expect(empty["a"] == nil)
        #expect(empty.removeValue(forKey: "a") == nil)
        empty.removeEntry(at: "a")
        #expect(empty.isEmpty && empty.names.isEmpty)
        let filled: RecordNameMap<String> = ["b": "2", "a": "1"]
        #expect(filled.names == ["a", "b"])
        #expect(filled["a"] == "1" && filled["b"] == "2")
        #expect(filled == ["a": "1", "b": "2"])
        #expect(filled != ["a": "1"])
    }

    @Test("equal keys hash alike, through Hasher and through the tables' hook")
    func hashesAgreeWithEquality() {
        let a = HashedRecordName("0000000A-ACE5-3815-6819-B508C3A74BBB")
        let b = HashedRecordName(String("0000000A-ACE5-3815-6819-B508C3A74BBB".reversed().reversed()))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a._rawHashValue(seed: 42) == b._rawHashValue(seed: 42))
        #expect(ModelID(7)._rawHashValue(seed: 3) == ModelID(7)._rawHashValue(seed: 3))
        #expect(ModelID(7)._rawHashValue(seed: 3) != ModelID(8)._rawHashValue(seed: 3))
        let zone = ZoneID(owner: "alice", name: "z")
        #expect(zone._rawHashValue(seed: 9) == ZoneID(owner: "alice", name: "z")._rawHashValue(seed: 9))
        #expect(zone.hashValue == ZoneID(owner: "alice", name: "z").hashValue)
        // Many identifiers in a set: none lost to the mixing.
        let ids = Set((0..<10_000).map { ModelID(UInt64($0)) })
        #expect(ids.count == 10_000)
        #expect((0..<10_000).allSatisfy { ids.contains(ModelID(UInt64($0))) })
    }
}
