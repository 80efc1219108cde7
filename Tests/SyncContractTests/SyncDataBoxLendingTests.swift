import SyncContract
import Testing

/// A box's contents move out when the box holds the only reference, and are copied (the
/// other holder keeps its value) when it does not.
@Suite struct SyncDataBoxLendingTests {
    struct Names: EngineSyncData {
        var names: [String: Int] = [:]
    }

    struct Other: EngineSyncData {}

    @Test func theOnlyReferenceMovesOutAndLeavesTheBoxEmpty() {
        var box = SyncDataBox(Names(names: ["a": 1]))
        let taken = box.takeContents(as: Names.self, leaving: Names())
        #expect(taken?.names == ["a": 1])
        #expect(box.isEmpty)
    }

    @Test func aSharedBoxIsCopiedAndTheOtherHolderKeepsItsValue() {
        let kept = SyncDataBox(Names(names: ["a": 1]))
        var lent = kept
        var taken = lent.takeContents(as: Names.self, leaving: Names())
        taken?.names["b"] = 2
        #expect(lent.isEmpty)
        #expect(kept.contents(as: Names.self)?.names == ["a": 1])
        #expect(taken?.names == ["a": 1, "b": 2])
    }

    @Test func anotherEnginesDataOpensAsNil() {
        var box = SyncDataBox(Other())
        #expect(box.takeContents(as: Names.self, leaving: Names()) == nil)
        var empty = SyncDataBox()
        #expect(empty.takeContents(as: Names.self, leaving: Names()) == nil)
    }

    @Test func boxesCompareAndHashByTheirContents() {
        let one = SyncDataBox(Names(names: ["a": 1]))
        let same = SyncDataBox(Names(names: ["a": 1]))
        #expect(one == same && one.hashValue == same.hashValue)
        #expect(one != SyncDataBox(Names(names: ["a": 2])))
        #expect(one != SyncDataBox(Other()) && one != SyncDataBox())
        #expect(SyncDataBox() == SyncDataBox())
    }
}
