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
        let rig = try rigWithARunUnderWay()
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
        let rig = try rigWithARunUnderWay()
        rig.account = nil
        rig.accountStatus = .noAccount
        rig.deliver(.accountChanged)
        let resume = try #require(rig.resumeFirstProbe())
        #expect(rig.describe(rig.deliver(resume)) == ["write store+syncData"])
    }

    // MARK: The engine's lifecycle (EngineLifecycle): not launched, idle, running

    /// A rig whose engine was made and not launched.
    func unlaunchedRig() -> EngineRig<SDSEngine> {
        EngineRig(schema: Self.schema, appZoneName: "SwiftDataSync") {
            SDSEngine(schema: Self.schema)
        }
    }

    /// The launch moves a new engine from not running to its first synchronization.
    @Test func theLaunchStartsTheFirstSynchronization() {
        let rig = unlaunchedRig()
        #expect(rig.engine.state == .notRunning)
        #expect(rig.engine.isIdle(now: rig.now))
        #expect(rig.describe(rig.deliver(.launch(waiter: nil))) == [
            "write store+syncData",
            "probe sync.start",
        ])
        #expect(rig.engine.state == .syncing)
        #expect(!rig.engine.isIdle(now: rig.now))
        rig.settle()
        #expect(rig.engine.state == .idle)
        #expect(rig.engine.isIdle(now: rig.now))
    }

    /// Before its launch the engine starts no synchronization: a push is traced, nothing
    /// more (the world launches an engine as it makes it; no trap for a test's early event).
    @Test func aPushBeforeTheLaunchStartsNothing() {
        let rig = unlaunchedRig()
        #expect(rig.describe(rig.deliver(.push)) == [
            "write store+syncData",
            "trace push.received []",
        ])
        #expect(rig.engine.state == .notRunning)
        #expect(rig.pending.isEmpty)
    }

    /// A synchronization ends at `sync.done`'s resume: the engine is idle again.
    @Test func aRunEndsAtTheResumeOfSyncDone() throws {
        let rig = launchedRig()
        rig.deliver(.push)
        rig.run(untilProbe: "sync.done")
        #expect(rig.engine.state == .syncing)
        #expect(rig.describe(rig.deliver(try #require(rig.resumeFirstProbe()))) == [
            "write store+syncData",
            "trace sync.ended []",
        ])
        #expect(rig.engine.state == .idle)
        #expect(rig.engine.isIdle(now: rig.now))
    }

    /// ACCT-5: an account change ends the running synchronization at once; signed out, no
    /// other starts.
    @Test func anAccountChangeEndsTheRun() throws {
        let rig = try rigWithARunUnderWay()
        rig.account = nil
        rig.accountStatus = .noAccount
        #expect(rig.describe(rig.deliver(.accountChanged)) == [
            "write store+syncData",
            "trace sync.stopped-by-account-change [ACCT-5]",
            "probe sync.done",
            "trace sync.ended []",
            "trace account.signed-out []",
        ])
        #expect(rig.engine.isIdle(now: rig.now))
    }

    /// LIFE-2 with ACCT-5: a reset asked for during a run that an account change then ends is
    /// done at that end, as at any other end of the run; its caller does not wait for a run
    /// the stopped engine would never start.
    @Test func aResetWaitingForARunAnAccountChangeEndsIsDone() throws {
        let rig = try rigWithAResetWaitingForTheRun()
        rig.account = nil
        rig.accountStatus = .noAccount
        #expect(rig.describe(rig.deliver(.accountChanged)) == [
            "write store+syncData",
            "trace sync.stopped-by-account-change [ACCT-5]",
            "probe sync.done",
            "trace sync.ended []",
            "trace reset.done [LIFE-2]",
            "completed 3",
            "trace account.signed-out []",
        ])
        #expect(rig.engine.state == .stopped)
    }

    /// LIFE-1: `stop()` during a run does not end it: the run stops after the answer it
    /// awaits, then passes `sync.done`; the engine stays stopped after it.
    @Test func aStopDuringARunLetsItFinish() throws {
        let rig = try rigWithARunUnderWay()
        #expect(rig.describe(rig.deliver(.appCall(.stop, waiter: nil))) == [
            "write store+syncData",
            "trace engine.stopped [LIFE-1]",
        ])
        #expect(rig.engine.state == .stopped)
        #expect(!rig.engine.isIdle(now: rig.now))
        rig.settle()
        #expect(rig.engine.state == .stopped)
        #expect(rig.engine.isIdle(now: rig.now))
    }

    /// A launched engine whose push started a run, past its first probe point.
    func rigWithARunUnderWay() throws -> EngineRig<SDSEngine> {
        let rig = launchedRig()
        rig.deliver(.push)
        rig.deliver(try #require(rig.resumeFirstProbe()))
        return rig
    }

    /// A launched engine whose run is under way and a reset (waiter 3) asked for meanwhile.
    private func rigWithAResetWaitingForTheRun() throws -> EngineRig<SDSEngine> {
        let rig = try rigWithARunUnderWay()
        let reset = EngineEvent.appCall(.resetSyncData(deleteAll: false), waiter: WaiterID(3))
        #expect(rig.describe(rig.deliver(reset)) == ["write store+syncData"])
        return rig
    }

    /// LIFE-2: a reset asked for during a run waits for the run's end, then forgets.
    @Test func aResetDuringARunWaitsForItsEnd() throws {
        let rig = try rigWithAResetWaitingForTheRun()
        rig.run(untilProbe: "sync.done")
        #expect(rig.describe(rig.deliver(try #require(rig.resumeFirstProbe()))) == [
            "write store+syncData",
            "trace sync.ended []",
            "trace reset.done [LIFE-2]",
            "completed 3",
        ])
        #expect(rig.engine.state == .stopped)
    }

    /// ERR-3: a network failure ends the run and waits for the network; coming online starts
    /// the synchronization wanted.
    @Test func aNetworkFailureWaitsForTheNetwork() throws {
        let rig = try rigWithARunUnderWay()
        rig.isOnline = false
        rig.settle()
        #expect(rig.engine.state == EngineState("waiting", "network"))
        rig.isOnline = true
        #expect(rig.describe(rig.deliver(.networkChanged(online: true))) == [
            "write store+syncData",
            "probe sync.start",
        ])
        #expect(rig.engine.state == .syncing)
    }

    /// A launch makes a new engine: a second launch of one engine is impossible, and traps.
    @Test func aSecondLaunchTraps() async {
        await #expect(processExitsWith: .failure) {
            let rig = EngineRig(schema: SDSEngineEventTests.schema, appZoneName: "SwiftDataSync") {
                SDSEngine(schema: SDSEngineEventTests.schema)
            }
            rig.launch()
            rig.deliver(.launch(waiter: nil))
        }
    }

    // MARK: Events ignored without a trap

    /// LIFE-1: a push while stopped starts nothing.
    @Test func aPushWhileStoppedIsIgnored() {
        let rig = launchedRig()
        rig.deliver(.appCall(.stop, waiter: nil))
        #expect(rig.describe(rig.deliver(.push)) == [
            "write store+syncData",
            "trace push.ignored [LIFE-1]",
        ])
        #expect(rig.engine.isIdle(now: rig.now))
    }

    /// The network coming or going, with no synchronization waiting for it, changes nothing.
    @Test func aNetworkChangeNothingWaitsForIsIgnored() {
        let rig = launchedRig()
        rig.isOnline = false
        #expect(rig.describe(rig.deliver(.networkChanged(online: false))) == [
            "write store+syncData",
        ])
        rig.isOnline = true
        #expect(rig.describe(rig.deliver(.networkChanged(online: true))) == [
            "write store+syncData",
        ])
        #expect(rig.engine.state == .idle)
    }

    /// SYNC-1: a debounce that fires while a run has not started uploading starts nothing:
    /// that run uploads the change.
    @Test func aDebounceDuringARunBeforeItsUploadIsIgnored() throws {
        let rig = launchedRig()
        rig.deliver(.push)
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        #expect(rig.describe(rig.deliver(rig.fire(.debounce))) == ["write store+syncData"])
        #expect(rig.engine.state == .syncing)
    }

    /// SYNC-1: a second save while the debounce is set sets no second timer.
    @Test func aSaveWhileTheDebounceIsSetSetsNoTimer() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        try rig.insert("Note", ["title": .string("B")])
        #expect(rig.describe(rig.deliver(.storeSaved)) == [
            "write store+syncData",
            "trace change.recorded [SYNC-1]",
        ])
    }
}
