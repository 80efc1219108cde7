import CloudSim
import Kernel
import LocalStore
@testable import SDS
import Testing

/// The record table (bindings and change tags in one table keyed by name) answers what the
/// three maps it replaced answered, after any sequence of binds, unbinds and tag changes.
@Suite struct RecordTableTests {
    /// The maps the table replaced, changed the way SDSSyncData changed them.
    private struct Reference {
        var recordNames: [ModelID: String] = [:]
        var models: [String: ModelID] = [:]
        var changeTags: [String: String] = [:]

        mutating func bind(_ model: ModelID, to recordName: String) {
            if let old = recordNames[model], old != recordName { models[old] = nil }
            if let other = models[recordName], other != model { recordNames[other] = nil }
            recordNames[model] = recordName
            models[recordName] = model
        }

        mutating func unbind(_ model: ModelID) {
            if let name = recordNames[model] { models[name] = nil }
            recordNames[model] = nil
        }
    }

    private static func check(_ table: RecordTable, against reference: Reference,
                              names: [String], ids: [ModelID]) {
        for name in names {
            #expect(table.model(named: name) == reference.models[name], "model of \(name)")
            #expect(table.changeTag(of: name) == reference.changeTags[name], "tag of \(name)")
        }
        for id in ids {
            #expect(table.name(of: id) == reference.recordNames[id], "name of \(id)")
            if let name = reference.recordNames[id] {
                #expect(table.isBound(id, to: name), "\(id) bound to \(name)")
            }
        }
        for (name, id) in zip(names, ids) { // tidy: ordered (two lists)
            #expect(table.isBound(id, to: name) == (reference.recordNames[id] == name))
        }
        #expect(table.boundCount == reference.recordNames.count)
        #expect(table.boundModels == reference.recordNames.keys.sorted())
        #expect(table.sortedBoundNames == reference.models.keys.sorted())
    }

    @Test("binds, unbinds and change tags answer as the three maps did, with removals in crowded runs")
    func matchesTheMaps() {
        var random = RandomStreams(seed: 11).stream("records")
        var table = RecordTable()
        var reference = Reference()
        // Few names and identifiers, so they collide, rebind and are removed often; some
        // identifiers beyond the dense range.
        let names = (0..<300).map { "name-\($0)" }
        let ids = (0..<200).map { ModelID($0 < 190 ? UInt64($0) : RecordTable.denseLimit + UInt64($0)) }
        for step in 0..<20_000 {
            let name = names[Int(random.next() % UInt64(names.count))]
            let id = ids[Int(random.next() % UInt64(ids.count))]
            switch random.next() % 5 {
            case 0, 1:
                table.bind(id, to: name)
                reference.bind(id, to: name)
            case 2:
                table.unbind(id)
                reference.unbind(id)
            case 3:
                let tag = "ct\(step)"
                table.setChangeTag(tag, for: name)
                reference.changeTags[name] = tag
            default:
                table.setChangeTag(nil, for: name)
                reference.changeTags[name] = nil
            }
            if step % 997 == 0 { Self.check(table, against: reference, names: names, ids: ids) }
        }
        Self.check(table, against: reference, names: names, ids: ids)
        table.removeAllChangeTags()
        reference.changeTags = [:]
        Self.check(table, against: reference, names: names, ids: ids)
        for id in ids { table.unbind(id) }
        #expect(table == RecordTable())
    }

    @Test("the observation's hashed-name lookups answer as the string ones")
    func hashedLookupsMatch() {
        var data = SDSSyncData()
        let names = (0..<40).map { "0000000\($0 % 10)-ACE5-3815-6819-B508C3A74B\(100 + $0)" }
        for (offset, name) in names.enumerated() where offset % 3 != 0 {
            data.bind(ModelID(UInt64(offset)), to: name)
        }
        let observation = SDSObservation(syncData: data, engine: nil)
        for (offset, name) in names.enumerated() {
            // Built again, so the table does not hold this very string: the hashed path.
            let copy = String(decoding: Array(name.utf8), as: UTF8.self)
            let id = ModelID(UInt64(offset))
            #expect(observation.model(forRecord: HashedRecordName(copy))
                    == observation.model(forRecord: name))
            #expect(observation.model(forRecord: HashedRecordName(name))
                    == (offset % 3 != 0 ? id : nil))
            #expect(observation.isModel(id, boundTo: HashedRecordName(copy))
                    == (observation.recordName(of: id) == name))
            #expect(!observation.isModel(id, boundTo: HashedRecordName("other")))
        }
    }

    @Test("equal, with equal hashes, whatever order built the same entries")
    func equalityIgnoresLayout() {
        var forward = RecordTable()
        var backward = RecordTable()
        for index in 0..<500 {
            forward.bind(ModelID(UInt64(index) + 1), to: "record-\(index)")
            if index % 3 == 0 { forward.setChangeTag("ct\(index)", for: "record-\(index)") }
        }
        forward.setChangeTag("ct-x", for: "only-a-tag")
        backward.setChangeTag("ct-x", for: "only-a-tag")
        for index in (0..<500).reversed() {
            if index % 3 == 0 { backward.setChangeTag("ct\(index)", for: "record-\(index)") }
            backward.bind(ModelID(UInt64(index) + 1), to: "record-\(index)")
            // A detour that leaves nothing behind.
            backward.bind(ModelID(UInt64(index) + 1_000), to: "detour-\(index)")
            backward.unbind(ModelID(UInt64(index) + 1_000))
        }
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        backward.setChangeTag("ct-y", for: "only-a-tag")
        #expect(forward != backward)
        backward.setChangeTag("ct-x", for: "only-a-tag")
        backward.bind(ModelID(7), to: "record-7-renamed")
        #expect(forward != backward)
    }

    @Test("a name bound to another model moves; the first model loses its binding, tags stay")
    func rebinding() {
        var table = RecordTable()
        table.bind(ModelID(1), to: "a")
        table.setChangeTag("t1", for: "a")
        table.bind(ModelID(2), to: "a")
        #expect(table.name(of: ModelID(1)) == nil)
        #expect(table.model(named: "a") == ModelID(2))
        #expect(table.changeTag(of: "a") == "t1")
        table.bind(ModelID(2), to: "b")
        #expect(table.model(named: "a") == nil)
        #expect(table.changeTag(of: "a") == "t1")
        #expect(table.boundCount == 1)
        table.setChangeTag(nil, for: "a")
        table.unbind(ModelID(2))
        #expect(table == RecordTable())
        #expect(table.boundModels.isEmpty)
    }

    @Test("names equal as strings are one name, whatever their bytes (canonical equivalence)")
    func canonicalEquivalence() {
        var table = RecordTable()
        // Precomposed and decomposed é; the Kelvin sign, the Greek question mark and varia,
        // which decompose to the ASCII K, ; and `.
        let pairs = [("caf\u{E9}", "cafe\u{301}"), ("\u{212A}elvin", "Kelvin"),
                     ("a\u{37E}b", "a;b"), ("\u{1FEF}x", "`x"), ("\u{212A}\u{E9}", "Ke\u{301}")]
        for (index, (stored, asked)) in pairs.enumerated() {
            #expect(stored == asked)
            #expect(RecordTable.hash(stored) == RecordTable.hash(asked), "\(asked)")
            table.bind(ModelID(UInt64(index) + 1), to: stored)
            #expect(table.model(named: asked) == ModelID(UInt64(index) + 1), "\(asked)")
            table.setChangeTag("ct\(index)", for: asked)
            #expect(table.changeTag(of: stored) == "ct\(index)")
        }
        #expect(table.boundCount == pairs.count)
        #expect(table.model(named: "cafe") == nil)
    }

    /// The slot hash of ASCII bytes written the plain way: words, then the tail byte by byte.
    private static func referenceHash(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var state = UInt64(bytes.count) &* multiplier
        var offset = 0
        while offset + 8 <= bytes.count {
            var word: UInt64 = 0
            for index in 0..<8 { word |= UInt64(bytes[offset + index]) << (UInt64(index) * 8) }
            state = (state ^ word) &* multiplier
            state ^= state >> 32
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << (UInt64(index - offset) * 8) }
            state = (state ^ tail) &* multiplier
        }
        state ^= state >> 33
        state &*= 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        state &*= 0xC4CE_B9FE_1A85_EC53
        state ^= state >> 33
        return Int(truncatingIfNeeded: state)
    }

    @Test("an ASCII name of any length hashes as its bytes read word by word, tail included")
    func asciiHashOfEveryLength() {
        let alphabet = Array("0123456789ABCDEF-abcdefghijklmnopqrstuvwxyz")
        var names: [String] = []
        for length in 0...41 {
            names.append(String((0..<length).map { alphabet[($0 * 7 + length) % alphabet.count] }))
        }
        for name in names {
            #expect(RecordTable.hash(name) == Self.referenceHash(name), "\(name.count) bytes")
        }
        // Names that differ only in their last byte, or only in length, land apart.
        #expect(RecordTable.hash("AB12CD34-0000-0000-0000-00000000000A")
                != RecordTable.hash("AB12CD34-0000-0000-0000-00000000000B"))
        #expect(RecordTable.hash("n1") != RecordTable.hash("n1\u{0}"))
    }

    @Test("an emptied set of pending changes gives its storage back and still reads empty")
    func pendingChangesEmptied() {
        var pending = PendingChanges()
        for raw in 1...1_000 { pending[ModelID(UInt64(raw))] = PendingChange(isInsert: true) }
        for raw in 1...1_000 { pending[ModelID(UInt64(raw))] = nil }
        #expect(pending.isEmpty)
        #expect(pending == PendingChanges())
        #expect(Array(pending.inOrder).isEmpty)
        pending[ModelID(5)] = PendingChange(keys: ["title": 1])
        #expect(Array(pending.othersInOrder) == [ModelID(5)])
    }
}
