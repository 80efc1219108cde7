import Kernel
import LocalStore
import SyncContract
import Testing

/// The lending path resumes the probe points an event passes in line, in the order the world
/// would deliver their `.resume`s, as many as it is granted, and stops before a point whose
/// `.resume` an effect of the event would come after.
@Suite struct InLineResumeTests {
    struct Data: EngineSyncData {}

    /// The events the engine got, the effects after the write, and how many were resumed.
    typealias Outcome = (events: [EngineEvent], effects: [EngineEffect], resumed: Int)

    /// Handles `.push` with `body` as the engine, granting `granted` resumes in line.
    private func handle(
        granted: Int, _ body: (EngineEvent, inout [EngineEffect]) -> Void
    ) -> Outcome {
        let conditions = DeviceConditions(
            now: .zero, device: "phone", account: nil, accountStatus: .noAccount,
            isOnline: true, isDiskFull: false)
        var names = Xoshiro256StarStar(seed: 1)
        var store = Store(schema: Schema(entities: []))
        var box = SyncDataBox()
        var passes = granted
        var events: [EngineEvent] = []
        let effects = EngineContext<Data>.handlingLentDisk(
            .push, conditions: conditions, disk: &store, syncData: &box, names: &names,
            resumingInLine: &passes
        ) { event, _, effects in
            events.append(copy event)
            body(copy event, &effects)
        }
        return (events, Array(effects.dropFirst()), passes)
    }

    /// Two points passed by the event, a third by the first's `.resume`: resumed first in,
    /// first out, each with its own ticket.
    private static func twoThenOne(_ event: EngineEvent, _ effects: inout [EngineEffect]) {
        switch event {
        case .push:
            effects.append(.probe("a"))
            effects.append(.probe("b", ticket: ProbeTicket(synchronization: 7)))
        case .resume(.sole) where effects.count == 3:
            effects.append(.probe("c"))
        default:
            break
        }
    }

    @Test func pointsAreResumedInTheOrderTheyWerePassed() {
        let outcome = handle(granted: 16, Self.twoThenOne)
        #expect(outcome.events == [
            .push, .resume(.sole), .resume(ProbeTicket(synchronization: 7)), .resume(.sole),
        ])
        #expect(outcome.resumed == 3)
        #expect(outcome.effects.compactMap(\.probePoint) == ["a", "b", "c"])
    }

    @Test func noMoreThanTheGrantAreResumed() {
        let outcome = handle(granted: 1, Self.twoThenOne)
        #expect(outcome.events == [.push, .resume(.sole)])
        #expect(outcome.resumed == 1)
    }

    /// A wait the event ended, or a timer due at once, would come before the `.resume`.
    @Test(arguments: [
        EngineEffect.completed(WaiterID(1)), .failed(WaiterID(1), reason: "no"),
        .setTimer(EngineTimer("soon"), after: .zero),
    ])
    func nothingIsResumedAfterWhatWouldComeFirst(_ blocker: EngineEffect) {
        let outcome = handle(granted: 16) { event, effects in
            if case .push = event {
                effects.append(.probe("a"))
                effects.append(blocker)
            }
        }
        #expect(outcome.events == [.push])
        #expect(outcome.resumed == 0)
    }
}
