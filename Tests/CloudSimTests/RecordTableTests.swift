@testable import CloudSim
import Kernel
import Testing

/// `RecordTable`, a zone's live records as a dense array with an index by name (issue 19):
/// it must answer every lookup as the dictionary it replaced did, whatever the writes and
/// deletions moved, and keep every record whole.
@Suite struct RecordTableTests {
    let zone = ZoneID(owner: "alice", name: "App")

    func record(_ name: String, title: String, tag: String) -> CloudRecord {
        var record = CloudRecord(
            recordType: "Note", recordName: name, zone: zone, fields: ["title": .string(title)],
            changeTag: tag)
        record.creationTime = .seconds(1)
        record.modificationTime = .seconds(2)
        record.lastModifiedBy = "phone"
        return record
    }

    @Test func keepsEveryPartOfARecordAndReturnsTheOneAWriteReplaces() {
        var table = RecordTable(zone: zone)
        var full = record("r1", title: "one", tag: "ct1")
        full.parent = "root"
        full.share = "s1"
        full.participants = [.owner("alice")]
        #expect(table.write(full, sequence: 1) == nil)
        #expect(table["r1"]?.record == full)
        #expect(table["r1"]?.sequence == 1)
        var bare = CloudRecord(recordType: "Note", recordName: "r1", zone: zone, changeTag: "ct2")
        bare.creationTime = nil
        #expect(table.write(bare, sequence: 2) == full)
        #expect(table["r1"]?.record == bare)
        #expect(table["r1"]?.record.creationTime == nil)
        #expect(table["r1"]?.record.modificationTime == nil)
        #expect(table["r1"]?.sequence == 2)
        #expect(table.count == 1)
    }

    @Test func aRemovalMovesTheLastRecordAndEveryNameStillFindsItsOwn() {
        var table = RecordTable(zone: zone)
        for (sequence, name) in ["a", "b", "c", "d"].enumerated() {
            _ = table.write(record(name, title: name, tag: "t\(name)"), sequence: Int64(sequence))
        }
        #expect(table.remove(named: "b")?.record.recordName == "b")
        #expect(table.remove(named: "b") == nil)
        #expect(!table.contains("b"))
        #expect(table["d"]?.record == record("d", title: "d", tag: "td"))
        #expect(table.remove(named: "d")?.sequence == 3)
        #expect(table.sortedNames == ["a", "c"])
        #expect(table.remove(named: "a") != nil)
        #expect(table.remove(named: "c") != nil)
        #expect(table.isEmpty)
        #expect(table.remove(named: "a") == nil)
    }

    /// A long deterministic mix of writes, rewrites and deletions, with and without sharing
    /// fields, compared after each step with the dictionary the table replaced.
    @Test func answersLikeADictionaryThroughAnyMixOfWritesAndDeletions() {
        var table = RecordTable(zone: zone)
        var reference: [String: StoredRecord] = [:]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for step in 1...2_000 {
            let name = "record-\(next(60))"
            if next(3) == 0 {
                #expect(table.remove(named: name) == reference.removeValue(forKey: name))
            } else {
                var written = record(name, title: "v\(step)", tag: "ct\(step)")
                // Some versions carry sharing fields (kept apart from the slots), some not.
                switch next(4) {
                case 0: written.share = "share-\(step)"
                case 1: written.participants = [.owner("alice")]
                default: break
                }
                // Writers vary, so the table must keep the first one of each life.
                written.lastModifiedBy = "device-\(step % 3)"
                let previous = table.write(written, sequence: Int64(step))
                #expect(previous == reference[name]?.record)
                // The creator is the first writer of the record's life.
                reference[name] = StoredRecord(
                    record: written, sequence: Int64(step),
                    createdBy: reference[name].map { $0.createdBy } ?? written.lastModifiedBy)
            }
            #expect(table.count == reference.count)
            #expect(table[name] == reference[name])
            #expect(table.contains(name) == (reference[name] != nil))
            #expect(table.sequence(of: name) == reference[name]?.sequence)
        }
        let names = reference.keys.sorted()
        #expect(table.sortedNames == names)
        #expect(table.sortedRecords() == names.compactMap { reference[$0]?.record })
        #expect(table.recordsByName() == reference.mapValues(\.record))
        for name in names { #expect(table[name] == reference[name]) }
        #expect(table.unorderedNames { $0["title"] == .string("never") }.isEmpty)
        #expect(table.unorderedNames { _ in true }.sorted() == names)
    }

    /// The index by name through its growth and the backward shifts of its deletions: names
    /// long and short, ASCII and not (one spelled two canonically equivalent ways, as the
    /// Kelvin sign and K), every name checked every so often.
    @Test func findsEveryNameThroughGrowthAndDeletions() {
        var table = RecordTable(zone: zone)
        var reference: [String: StoredRecord] = [:]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let shapes: [(Int) -> String] = [
            { "\($0)" },
            { "Note_7F3A\($0)-2C4B-4D5E-9F60-71829304A5B6" },
            { "caf\u{E9}-\($0)" },
            { "cafe\u{301}-\($0)" },
            { "\u{212A}elvin-\($0)" },
            { "Kelvin-\($0)" },
        ]
        for step in 1...6_000 {
            let name = shapes[next(shapes.count)](next(step < 3_000 ? 400 : 40))
            if next(3) == 0 {
                #expect(table.remove(named: name) == reference.removeValue(forKey: name))
            } else {
                let written = record(name, title: "v\(step)", tag: "ct\(step)")
                #expect(table.write(written, sequence: Int64(step)) == reference[name]?.record)
                // The creator is the first writer of the record's life.
                reference[name] = StoredRecord(
                    record: written, sequence: Int64(step),
                    createdBy: reference[name].map { $0.createdBy } ?? written.lastModifiedBy)
            }
            if step % 250 == 0 {
                #expect(table.count == reference.count)
                for (known, stored) in reference { // tidy: ordered each name checked alone
                    #expect(table.sequence(of: known) == stored.sequence, "\(known)")
                }
            }
        }
        // As sets: a rewrite keeps its own spelling of an equivalent name, a dictionary the
        // first one, and two spellings need not sort alike.
        #expect(Set(table.sortedNames) == Set(reference.keys))
    }
}
