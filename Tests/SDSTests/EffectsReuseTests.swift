import Kernel
import LocalStore
import SDS
import SyncContract
import Testing

/// The device gives an event's effects array back, emptied but for the write's place
/// (`DiskLendingEngine.handleLent`), for sds to fill on its next event: the effects are those
/// of an engine that never got an array back. (That the array is reused is a speed matter, checked by .ci/instruction-budget.sh.)
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

    /// The effects of `events` on a fresh engine, with each array given back or not.
    private func run(_ events: [EngineEvent], givingBack: Bool) -> [[EngineEffect]] {
        let engine = SDSEngine(schema: schema)
        var store = Store(schema: schema)
        var box = SyncDataBox(SDSSyncData())
        var names = RandomStreams(seed: 1).stream("names/phone")
        var effects: [[EngineEffect]] = []
        var spare: [EngineEffect] = []
        for event in events {
            var none = 0
            var lent = conditions
            var returned = engine.handleLent(
                event, conditions: &lent, disk: &store, syncData: &box, names: &names,
                resumingInLine: &none, reusing: &spare)
            // The lent write is the disk's; what the world compares is everything after it.
            effects.append(Array(returned.dropFirst()))
            if givingBack {
                // As the world leaves it: each effect swapped out for a probe without a name.
                for index in returned.indices.dropFirst() { returned[index] = .probe("") }
                returned.removeLast(returned.count - 1)
                returned[0] = .probe("")
                spare = returned
            }
        }
        return effects
    }

    private let events: [EngineEvent] = [
        .launch(waiter: nil), .resume(.sole), .storeSaved, .resume(.sole),
        .networkChanged(online: false),
    ]

    @Test func theEffectsAreThoseOfAnEngineThatGotNoArrayBack() {
        let reused = run(events, givingBack: true)
        let fresh = run(events, givingBack: false)
        #expect(reused.map { $0.map { "\($0)" } } == fresh.map { $0.map { "\($0)" } })
        #expect(reused.contains { !$0.isEmpty }, "the events have effects to compare")
    }
}
