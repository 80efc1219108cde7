import CloudSim
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
        let taken = box.takeContents(as: Names.self)
        #expect(taken?.names == ["a": 1])
        #expect(box.isEmpty)
    }

    @Test func aSharedBoxIsCopiedAndTheOtherHolderKeepsItsValue() {
        let kept = SyncDataBox(Names(names: ["a": 1]))
        var lent = kept
        var taken = lent.takeContents(as: Names.self)
        taken?.names["b"] = 2
        #expect(lent.isEmpty)
        #expect(kept.contents(as: Names.self)?.names == ["a": 1])
        #expect(taken?.names == ["a": 1, "b": 2])
    }

    @Test func anotherEnginesDataOpensAsNil() {
        var box = SyncDataBox(Other())
        #expect(box.takeContents(as: Names.self) == nil)
        var empty = SyncDataBox()
        #expect(empty.takeContents(as: Names.self) == nil)
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

/// `EngineContext.handlingLentDisk` lends the body the sync data and takes the context apart
/// at the end: the write comes first with the body's changes, the names come back advanced,
/// and the body's effects follow the write in order. (That the data is lent, not copied, is
/// a speed matter: .ci/instruction-budget.sh checks it by its cost.)
@Suite struct HandlingLentDiskTests {
    struct Data: EngineSyncData {
        var count = 0
    }

    @Test func theBodyHasTheOnlyCopyAndTheWriteComesFirst() throws {
        let conditions = DeviceConditions(
            now: .seconds(3), device: "phone", account: "alice", accountStatus: .available,
            isOnline: true, isDiskFull: false)
        var names = Xoshiro256StarStar(seed: 9)
        var expectedNames = names
        var drawn = ""
        var store = Store(schema: Schema(entities: []))
        var box = SyncDataBox(Data())
        var none = 0
        let effects = EngineContext<Data>.handlingLentDisk(
            .push, conditions: conditions, disk: &store, syncData: &box, names: &names,
            resumingInLine: &none
        ) { _, context, effects in
            #expect(context.device == "phone" && context.account == "alice" && context.now == .seconds(3))
            context.syncData.count += 1
            drawn = context.makeRandomRecordName()
            effects.append(.probe("one"))
            effects.append(.probe("two"))
        }
        #expect(drawn == EngineContext<Data>.randomRecordName(drawingFrom: &expectedNames))
        #expect(names == expectedNames)
        #expect(effects.count == 3)
        guard case .write(let write)? = effects.first, let written = write.syncData, write.store != nil else {
            Issue.record("the first effect is not the whole-state write")
            return
        }
        let data = try #require(written.contents(as: Data.self))
        #expect(data.count == 1)
        guard case .probe("one", _) = effects[1], case .probe("two", _) = effects[2] else {
            Issue.record("the body's effects are not in order after the write")
            return
        }
    }

    /// Over the disk itself, the store and box hold the body's changes when it returns, and
    /// the write that comes first is of that very box (the device skips carrying it out).
    @Test func overTheDiskItselfTheDiskHoldsTheWrite() throws {
        let conditions = DeviceConditions(
            now: .seconds(3), device: "phone", account: "alice", accountStatus: .available,
            isOnline: true, isDiskFull: false)
        let schema = Schema(entities: [EntityDescription(
            name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)])])
        var names = Xoshiro256StarStar(seed: 9)
        var store = Store(schema: schema)
        var box = SyncDataBox(Data())
        var none = 0
        let effects = EngineContext<Data>.handlingLentDisk(
            .push, conditions: conditions, disk: &store, syncData: &box, names: &names,
            resumingInLine: &none
        ) { event, context, effects in
            #expect(event == .push)
            context.syncData.count += 1
            _ = context.store.makeModelID()
            effects.append(.probe("one"))
        }
        #expect(try #require(box.contents(as: Data.self)).count == 1)
        #expect(store.modelIDMark == 2)
        #expect(effects.count == 2)
        guard case .write(let write)? = effects.first, let written = write.syncData,
              let writtenStore = write.store else {
            Issue.record("the first effect is not the whole-state write")
            return
        }
        #expect(written.isIdentical(to: box) && writtenStore == store)
    }

    /// `handlingLentDisk` (its core, `lendingDisk`) moves out or destroys each stored property
    /// of `EngineContext` by name; one added without it would leak on every event. This fails
    /// until it is added there.
    @Test func theContextHasOnlyTheFieldsTheLentPathTakesApart() {
        let context = EngineContext<Data>(
            now: .seconds(1), device: "phone", account: nil, accountStatus: .available,
            isOnline: true, store: Store(schema: Schema(entities: [])), syncData: Data(),
            names: Xoshiro256StarStar(seed: 1))
        let fields = Mirror(reflecting: context).children.compactMap(\.label)
        #expect(fields == [
            "now", "device", "account", "accountStatus", "isOnline", "isDiskFull", "store",
            "syncData", "names", "isTracing",
        ])
    }

    /// The lent-disk path hands its body the event it was given only while events stay the
    /// size they are: a cloud answer with a large inline payload (a query page with its
    /// cursor) made the body see another event, so large payloads are `indirect`.
    @Test func eventsAndCloudMessagesStaySmall() {
        #expect(MemoryLayout<EngineEvent>.size <= 97, "\(MemoryLayout<EngineEvent>.size)")
        #expect(MemoryLayout<CloudResponse>.size <= 89, "\(MemoryLayout<CloudResponse>.size)")
        #expect(MemoryLayout<CloudRequest>.size <= 121, "\(MemoryLayout<CloudRequest>.size)")
    }
}
