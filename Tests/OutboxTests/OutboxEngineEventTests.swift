import CloudSim
import Kernel
import LocalStore
import Outbox
import SyncContract
import Testing
import TestSupport

@Suite struct OutboxEngineEventTests {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ]),
    ])

    func makeRig() -> EngineRig<OutboxEngine> {
        EngineRig(schema: Self.schema, appZoneName: OutboxEngine.mainZoneName) {
            OutboxEngine(schema: Self.schema, recordingSchema: Self.schema)
        }
    }

    func show(_ label: String, _ effects: [EngineEffect]) {
        print("### \(label)")
        for line in EffectLines.describe(effects) { print("    \"\(line)\",") }
    }

    @Test func explore() throws {
        var rig = makeRig()
        show("launch", rig.deliver(.launch(waiter: WaiterID(1))))
        print("pending", rig.pending.count, rig.timers)
        rig.settleWithTimers()
        print("timers after launch", rig.timers)
        try rig.insert("Note", ["title": .string("A")])
        show("save", rig.deliver(.storeSaved))
        print("timers", rig.timers)
        show("fire send timer", rig.deliver(rig.fire(rig.timers.keys.sorted().first!)))
        print("pending", rig.pending)
        rig.run(untilProbe: "upload.sent")
        let id = rig.sent.last!.id
        rig.dropRequest(id)
        rig.settle()
        show("throttled", rig.deliver(.response(id, .failure(CloudError(.requestRateLimited, message: "slow", retryAfter: .seconds(7))))))
        print("timers", rig.timers, "pending", rig.pending.count)
        rig = makeRig(); rig.deliver(.launch(waiter: nil)); rig.settleWithTimers()
        show("push", rig.deliver(.push))
        print("timers", rig.timers)
        rig.isOnline = false
        show("offline", rig.deliver(.networkChanged(online: false)))
        try rig.insert("Note", ["title": .string("B")])
        show("offline save", rig.deliver(.storeSaved))
        rig.settle()
        rig.isOnline = true
        show("online", rig.deliver(.networkChanged(online: true)))
        rig = makeRig(); rig.deliver(.launch(waiter: nil)); rig.settleWithTimers()
        rig.account = nil; rig.accountStatus = .noAccount
        show("signout", rig.deliver(.accountChanged))
        print("pending", rig.pending)
        rig = makeRig(); rig.deliver(.launch(waiter: nil)); rig.settleWithTimers()
        show("observer", rig.deliver(.observerAttached))
        show("sync", rig.deliver(.appCall(.syncNow, waiter: WaiterID(2))))
    }
}
