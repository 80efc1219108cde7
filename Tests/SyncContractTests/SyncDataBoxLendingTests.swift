import Kernel
import LocalStore
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

/// An engine handed a lent disk works on the only copy of its sync data: nothing else still
/// holds the box's storage, so changing a collection of it changes it in place.
@Suite struct LentDiskTests {
    final class Marker: Hashable, Sendable {
        static func == (lhs: Marker, rhs: Marker) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    struct Data: EngineSyncData {
        var marker = Marker()
    }

    final class Engine: SyncEngine {
        typealias SyncData = Data
        static let writesWholeStateFirst = true
        var markerWasUnshared: Bool?

        func handle(_ event: EngineEvent, context: inout EngineContext<Data>) -> [EngineEffect] {
            markerWasUnshared = isKnownUniquelyReferenced(&context.syncData.marker)
            return [context.writeAll]
        }

        var state: EngineState { .idle }
        func isIdle(now: SimTime) -> Bool { true }
        func setAutosync(_ enabled: Bool) {}
    }

    @Test func theLentSyncDataIsTheOnlyCopy() {
        let engine = Engine()
        var names = Xoshiro256StarStar(seed: 1)
        let conditions = DeviceConditions(
            now: .zero, device: "phone", account: "alice", accountStatus: .available,
            isOnline: true, isDiskFull: false)
        var disk = SyncDataBox(Data())
        var lent = SyncDataBox()
        swap(&lent, &disk)
        _ = engine.handle(
            .push, conditions: conditions, lending: Store(schema: Schema(entities: [])),
            syncData: consume lent, names: &names)
        #expect(engine.markerWasUnshared == true)
    }
}
