import CloudSim
import Kernel
import LocalStore
import SDS
import SyncContract
import Testing
import TestSupport

/// The sds engine handed one event in a known state: the effects it returns, exactly and in
/// order (event in, effects out), on the shared `EngineRig`.
@Suite struct SDSEngineEventTests {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ]),
    ])

    /// A rig whose launch ran to its end, timers and all.
    func launchedRig() -> EngineRig<SDSEngine> {
        let rig = EngineRig(schema: Self.schema, appZoneName: "SwiftDataSync") {
            SDSEngine(schema: Self.schema)
        }
        rig.deliver(.launch(waiter: nil))
        rig.settleWithTimers()
        return rig
    }

    /// SYNC-1: an app save is recorded as a pending change and synchronized after a 500 ms
    /// debounce, not at once.
    @Test func anAppSaveIsRecordedAndDebounced() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        #expect(rig.describe(rig.deliver(.storeSaved)) == [
            "write store+syncData",
            "trace change.recorded [SYNC-1]",
            "timer debounce +0.5s",
        ])
        #expect(rig.pending.isEmpty)
    }

    /// A push starts a synchronization, which passes `sync.start` first (the contract's order).
    @Test func aPushStartsASynchronization() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.push)) == [
            "write store+syncData",
            "trace push.received []",
            "probe sync.start",
        ])
    }

    /// An answer to a request of a run an account change ended is ignored (it can arrive: the
    /// request was in flight).
    @Test func anAnswerToAnEndedRunIsIgnored() throws {
        let rig = launchedRig()
        rig.deliver(.push)
        rig.deliver(try #require(rig.resumeFirstProbe()))
        guard case .request(let id, _) = try #require(rig.pending.first) else {
            Issue.record("no request in flight")
            return
        }
        rig.account = nil
        rig.accountStatus = .noAccount
        rig.deliver(.accountChanged)
        #expect(rig.describe(rig.deliver(rig.answer(id))) == [
            "write store+syncData",
            "trace response.ignored []",
        ])
    }

    /// The `.resume` of the `sync.done` an account change passes finds no run: nothing happens.
    @Test func aResumeWithoutARunIsIgnored() throws {
        let rig = launchedRig()
        rig.deliver(.push)
        rig.deliver(try #require(rig.resumeFirstProbe()))
        rig.account = nil
        rig.accountStatus = .noAccount
        rig.deliver(.accountChanged)
        let resume = try #require(rig.resumeFirstProbe())
        #expect(rig.describe(rig.deliver(resume)) == ["write store+syncData"])
    }
}
