@testable import LocalStore
import Testing

/// `ModelTable` answers like the `[ModelID: Model]` it replaced, whatever its layout: every
/// lookup, the count, the walk in identifier order, equality and hashing.
@Suite struct ModelTableTests {
    private static func model(_ raw: UInt64, _ tag: Int = 0) -> Model {
        Model(id: ModelID(raw), entity: raw % 2 == 0 ? "Even" : "Odd",
              values: ["tag": .int(Int64(tag))],
              toOne: raw % 3 == 0 ? ["next": ModelID(raw + 1)] : [:])
    }

    /// Checks the table against the dictionary it must behave like.
    private static func expectSame(
        _ table: ModelTable, _ reference: [ModelID: Model], probes: [UInt64],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(table.count == reference.count, sourceLocation: sourceLocation)
        #expect(table.isEmpty == reference.isEmpty, sourceLocation: sourceLocation)
        let sorted = reference.keys.sorted()
        #expect(table.sortedIDs == sorted, sourceLocation: sourceLocation)
        #expect(table.modelsInOrder == sorted.map { reference[$0]! },
                sourceLocation: sourceLocation)
        for raw in probes {
            let id = ModelID(raw)
            #expect(table[id] == reference[id], "\(id)", sourceLocation: sourceLocation)
            #expect(table.contains(id) == (reference[id] != nil), sourceLocation: sourceLocation)
            // The field readers answer as a copy of the model would (slots and overflow).
            #expect(table.values(of: id) == reference[id]?.values, sourceLocation: sourceLocation)
            #expect(table.toOne(of: id) == reference[id]?.toOne, sourceLocation: sourceLocation)
            #expect(table.entity(of: id) == reference[id]?.entity, sourceLocation: sourceLocation)
            let earlier = Self.model(raw, -1)
            #expect(table.changedKeys(of: id, since: earlier)
                        == reference[id]?.changedKeys(since: earlier), sourceLocation: sourceLocation)
        }
        // The models with relationships, in identifier order, with their entity and maps.
        var related: [ModelID] = []
        table.forEachRelatedInOrder { id, entity, toOne, toMany in
            related.append(id)
            let model = reference[id]
            #expect(model?.entity == entity && model?.toOne == toOne && model?.toMany == toMany,
                    "\(id)", sourceLocation: sourceLocation)
        }
        // (Models outside the slots may come without any: each is checked above.)
        #expect(related.filter { !reference[$0]!.hasNoRelationships }
                    == sorted.filter { !reference[$0]!.hasNoRelationships },
                sourceLocation: sourceLocation)
        // The same models stored in order, in one go: a table laid out differently, and equal.
        var fresh = ModelTable()
        for id in sorted { fresh[id] = reference[id] }
        #expect(fresh == table, sourceLocation: sourceLocation)
        #expect(fresh.hashValue == table.hashValue, sourceLocation: sourceLocation)
    }

    @Test func randomOperationsMatchADictionary() {
        // A counter's identifiers mostly, some explicit low ones, a few far above the rest.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        var table = ModelTable()
        var reference: [ModelID: Model] = [:]
        var counter: UInt64 = 1
        var probes: Set<UInt64> = [0, 1, 2, UInt64.max - 1]
        for step in 0..<4_000 {
            let raw: UInt64
            switch next(20) {
            case 0: raw = 1 + next(40)                       // low, maybe below the slots
            case 1: counter += 200 + next(2_000); raw = counter // far above the slots
            case 2...9: raw = counter; counter += 1 + next(3) // the counter, small gaps
            default:                                          // one stored (or the counter)
                let stored = reference.keys.sorted()
                raw = stored.isEmpty ? counter : stored[Int(next(UInt64(stored.count)))].rawValue
            }
            probes.insert(raw)
            probes.insert(raw + 1)
            if next(3) == 0 {
                let removed = table.removeValue(forKey: ModelID(raw))
                #expect(removed == reference.removeValue(forKey: ModelID(raw)))
            } else if next(4) == 0, reference[ModelID(raw)] != nil {
                let changed: Bool? = table.modify(ModelID(raw)) {
                    $0.values["tag"] = .int(Int64(step))
                    return true
                }
                #expect(changed == true)
                reference[ModelID(raw)]?.values["tag"] = .int(Int64(step))
            } else {
                table[ModelID(raw)] = Self.model(raw, step)
                reference[ModelID(raw)] = Self.model(raw, step)
            }
            #expect(table.slotCount <= max(64, 4 * table.slottedCount), "step \(step)")
            if step % 97 == 0 {
                Self.expectSame(table, reference, probes: probes.sorted())
            }
        }
        Self.expectSame(table, reference, probes: probes.sorted())
        // Then nearly everything goes, oldest first: the holes are given back.
        for id in reference.keys.sorted().dropLast(3) {
            table[id] = nil
            reference[id] = nil
        }
        Self.expectSame(table, reference, probes: probes.sorted())
        #expect(table.slotCount <= 64)
    }

    @Test func aFarIdentifierStartsNewSlotsRatherThanAHugeArray() {
        var table = ModelTable()
        for raw in UInt64(1)...10 { table[ModelID(raw)] = Self.model(raw) }
        table[ModelID(1_000_000_000)] = Self.model(1_000_000_000)
        #expect(table.slotCount == 1)
        table[ModelID(1_000_000_001)] = Self.model(1_000_000_001)
        #expect(table.slotCount == 2)
        #expect(table.sortedIDs.map(\.rawValue) == Array(1...10) + [1_000_000_000, 1_000_000_001])
        // Below the new slots: kept beside them, found, walked in order.
        table[ModelID(500)] = Self.model(500)
        #expect(table[ModelID(500)]?.id == ModelID(500))
        #expect(table.sortedIDs.map(\.rawValue)
                == Array(1...10) + [500, 1_000_000_000, 1_000_000_001])
    }

    @Test func gapsBetweenInsertsLeaveTheSlotsAtLeastAQuarterFull() {
        var table = ModelTable()
        var reference: [ModelID: Model] = [:]
        for index in UInt64(0)..<300 {
            let raw = 1 + index * 65 // 64 identifiers never inserted between two models
            table[ModelID(raw)] = Self.model(raw)
            reference[ModelID(raw)] = Self.model(raw)
            #expect(table.slotCount <= max(64, 4 * table.slottedCount))
        }
        Self.expectSame(table, reference, probes: [1, 2, 66, 65 * 299 + 1])
    }

    @Test func removalsFromTheFrontKeepTheSlotsBounded() {
        var table = ModelTable()
        for raw in UInt64(1)...2_000 where raw % 2 == 0 { table[ModelID(raw)] = Self.model(raw) }
        for raw in UInt64(1)...2_000 where raw % 2 == 0 {
            table[ModelID(raw)] = nil
            #expect(table.slotCount <= max(64, 4 * table.slottedCount))
        }
        #expect(table.isEmpty && table.slotCount == 0)
    }

    @Test func holesAreBoundedWhenMostModelsAreDeleted() {
        var table = ModelTable()
        for raw in UInt64(1)...1_000 { table[ModelID(raw)] = Self.model(raw) }
        #expect(table.slotCount == 1_000)
        // Keep every tenth: the slots would be nine-tenths holes.
        for raw in UInt64(1)...1_000 where raw % 10 != 0 { table[ModelID(raw)] = nil }
        #expect(table.count == 100)
        #expect(table.slotCount < 400)
        #expect(table.sortedIDs.map(\.rawValue) == Array(stride(from: 10, through: 1_000, by: 10)))
        // New identifiers from the counter go to slots again.
        for raw in UInt64(1_001)...1_100 { table[ModelID(raw)] = Self.model(raw) }
        #expect(table.count == 200)
        #expect(table.slotCount >= 100)
        #expect(table[ModelID(1_050)] != nil && table[ModelID(990)] != nil)
        #expect(table[ModelID(991)] == nil)
    }

    @Test func equalityIgnoresTheLayout() {
        var grown = ModelTable()
        for raw in UInt64(1)...300 { grown[ModelID(raw)] = Self.model(raw) }
        for raw in UInt64(1)...290 { grown[ModelID(raw)] = nil }
        var direct = ModelTable()
        for raw in UInt64(291)...300 { direct[ModelID(raw)] = Self.model(raw) }
        #expect(grown == direct)
        #expect(grown.hashValue == direct.hashValue)
        direct[ModelID(300)] = Self.model(300, 1)
        #expect(grown != direct)
    }

    @Test func aStoreWhoseModelsWereDeletedEqualsOneThatNeverHadThem() throws {
        let schema = Schema(entities: [EntityDescription(
            name: "Note",
            attributes: [AttributeDescription(
                name: "title", type: .string, defaultValue: .string(""))])])
        var churned = Store(schema: schema)
        var ids: [ModelID] = []
        var inserts = Transaction()
        for _ in 0..<200 {
            let id = churned.makeModelID()
            ids.append(id)
            inserts.append(.insert(id, entity: "Note", values: [:]))
        }
        try churned.save(inserts, author: "a")
        var deletes = Transaction()
        for id in ids.dropLast() { deletes.append(.delete(id)) }
        try churned.save(deletes, author: "a")
        #expect(churned.models.map(\.id) == [ids.last!])
        #expect(churned.storage.slotCount <= 64)
        var kept = churned
        kept.deleteHistory(through: kept.lastHistoryPosition)
        var fresh = Store(schema: schema)
        fresh.nextModelRawValue = churned.nextModelRawValue
        fresh.storage[ids.last!] = churned.model(ids.last!)
        fresh.historyDiscardedThrough = kept.historyDiscardedThrough
        fresh.newestHistoryPosition = kept.newestHistoryPosition
        #expect(fresh == kept)
    }
}
