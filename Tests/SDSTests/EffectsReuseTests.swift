import Kernel
import LocalStore
import SDS
import SyncContract
import Testing

/// The world gives an event's effects array back (`DiskLendingEngine.reuseEffects`) and sds
/// fills that same array on its next event instead of allocating one (issue 19); the effects
/// themselves are those of an engine that never got an array back.
@Suite struct EffectsReuseTests {
    private let schema = Schema(entities: [
        EntityDescription(
            name: "Note",
            attributes: [AttributeDescription(name: "title", type: .string, defaultValue: .string(""))]
        )
    ])

    private let conditions = DeviceConditions(
        now: .zero, device: "phone", account: "alice", accountStatus: .available,
        isOnline: true, isDiskFull: false)

    /// The effects of `events` on a fresh engine, with each array given back or not, and the
    /// address of each array's storage.
    private func run(_ events: [EngineEvent], givingBack: Bool)
        -> (effects: [[EngineEffect]], storage: [UInt])
    {
        let engine = SDSEngine(schema: schema)
        var store = Store(schema: schema)
        var box = SyncDataBox(SDSSyncData())
        var names = RandomStreams(seed: 1).stream("names/phone")
        var effects: [[EngineEffect]] = []
        var storage: [UInt] = []
        for event in events {
            var none = 0
            var returned = engine.handleLent(
                event, conditions: conditions, disk: &store, syncData: &box, names: &names,
                resumingInLine: &none)
            storage.append(returned.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
            // The lent write is the disk's; what the world compares is everything after it.
            effects.append(Array(returned.dropFirst()))
            if givingBack {
                // As the world leaves it: each effect swapped out for a probe without a name.
                for index in returned.indices.dropFirst() { returned[index] = .probe("") }
                engine.reuseEffects(consume returned)
            }
        }
        return (effects, storage)
    }

    private let events: [EngineEvent] = [
        .launch(waiter: nil), .resume(.sole), .storeSaved, .resume(.sole),
        .networkChanged(online: false),
    ]

    @Test func theNextEventFillsTheArrayGivenBack() {
        let reused = run(events, givingBack: true)
        #expect(Set(reused.storage).count == 1, "one array for every event")
    }

    /// An array of a capacity no event would allocate shows which array an event filled.
    @Test(arguments: [(capacity: 40, kept: true), (capacity: 100, kept: false)])
    func anArrayIsKeptUpToSixtyFourEffects(capacity: Int, kept: Bool) {
        let engine = SDSEngine(schema: schema)
        var store = Store(schema: schema)
        var box = SyncDataBox(SDSSyncData())
        var names = RandomStreams(seed: 1).stream("names/phone")
        var given: [EngineEffect] = [.probe(""), .probe("")]
        given.reserveCapacity(capacity)
        engine.reuseEffects(consume given)
        var none = 0
        let effects = engine.handleLent(
            .launch(waiter: nil), conditions: conditions, disk: &store, syncData: &box,
            names: &names, resumingInLine: &none)
        #expect((effects.capacity >= capacity) == kept)
        guard case .write? = effects.first else {
            Issue.record("the first effect is not the write")
            return
        }
    }

    @Test func theEffectsAreThoseOfAnEngineThatGotNoArrayBack() {
        let reused = run(events, givingBack: true)
        let fresh = run(events, givingBack: false)
        #expect(reused.effects.map { $0.map { "\($0)" } } == fresh.effects.map { $0.map { "\($0)" } })
        #expect(reused.effects.contains { !$0.isEmpty }, "the events have effects to compare")
    }
}
