import CloudSim
import Kernel
import LocalStore
import Outbox
import SyncContract
import Testing
import TestSupport

/// The outbox engine handed one event in a known state: the effects it returns, exactly and
/// in order (event in, effects out), on the shared `EngineRig`.
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

    /// A rig whose launch ran to its end, timers and all.
    func launchedRig() -> EngineRig<OutboxEngine> {
        let rig = makeRig()
        rig.deliver(.launch(waiter: nil))
        rig.settleWithTimers()
        return rig
    }

    /// OBX-3, OBX-7, OBX-8: a launch ensures the main zone, reconciles the outbox, and has the
    /// private CKSyncEngine schedule its fetch and send after the 1 s scheduler delay.
    @Test func aLaunchEnsuresTheZoneAndReconciles() {
        let rig = makeRig()
        #expect(rig.describe(rig.deliver(.launch(waiter: WaiterID(1)))) == [
            "timer outbox.private.fetch +1s",
            "write syncData",
            "timer outbox.private.state-update +0.1s",
            "timer outbox.private.send +1s",
            "trace zones.ensured [OBX-3]",
            "trace outbox.reconciled [OBX-7]",
            "probe outbox.reconciled",
        ])
        #expect(rig.sent.isEmpty)
    }

    /// OBX-4, OBX-1, OBX-7: an app save names the record, writes its outbox row with the
    /// store, and reconciles it into a send scheduled 1 s later.
    @Test func anAppSaveWritesAnOutboxRowAndSchedulesASend() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        #expect(rig.describe(rig.deliver(.storeSaved)) == [
            "trace record.named [OBX-1, OBX-35]",
            "write store+syncData",
            "trace outbox.committed [OBX-4, OBX-2]",
            "probe outbox.committed",
            "timer outbox.private.state-update +0.1s",
            "timer outbox.private.send +1s",
            "write syncData",
            "trace outbox.reconciled [OBX-7, OBX-8]",
            "probe outbox.reconciled",
        ])
    }

    /// OBX-7: a save by the adapter's own author is not recorded in the outbox.
    @Test func aSaveByTheAdapterIsNotRecorded() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")], author: OutboxEngine.author)
        #expect(rig.describe(rig.deliver(.storeSaved)) == [])
    }

    /// OBX-8, OBX-29: a push schedules a fetch 1 s later and checks the shared database for
    /// accepted shares.
    @Test func aPushSchedulesAFetch() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.push)) == [
            "timer outbox.private.fetch +1s",
            "send fetchDatabaseChanges sharedDatabase from the start",
        ])
    }

    /// OBX-8, OBX-9: offline is traced; back online, the pending send runs at once.
    @Test func backOnlineThePendingSendRuns() throws {
        let rig = launchedRig()
        rig.isOnline = false
        #expect(rig.describe(rig.deliver(.networkChanged(online: false))) == [
            "trace network.offline [OBX-8]",
        ])
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.settle()
        rig.isOnline = true
        #expect(rig.describe(rig.deliver(.networkChanged(online: true))) == [
            "trace network.online-send [OBX-9]",
            "trace cksync.event []",
            "probe cksync.willSendChanges",
            "probe sync.start",
            "probe download.start",
            "probe download.done",
            "probe upload.start",
        ])
    }

    /// OBX-19, OBX-23: a throttled save is retried: its row stays, the state is persisted,
    /// and CKSyncEngine retries the send after the retry-after.
    @Test func aThrottledSaveIsRetriedAfterItsRetryAfter() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.deliver(rig.fire(EngineTimer("outbox.private.send")))
        rig.run(untilProbe: "upload.sent")
        let send = try #require(rig.sent.last)
        #expect(EffectLines.describe(send.request)
            == "modifyRecords Main saves [\"Note\"] deletes 0 ifServerRecordUnchanged")
        rig.dropRequest(send.id)
        rig.settle()
        let throttled = CloudError(.requestRateLimited, message: "slow down",
                                   retryAfter: .seconds(7))
        #expect(rig.describe(rig.deliver(.response(send.id, .failure(throttled)))) == [
            "trace cksync.event []",
            "probe cksync.sentRecordZoneChanges",
            "trace save.retry [OBX-19]",
            "write store+syncData",
            "probe upload.done",
            "cancel outbox.private.state-update",
            "trace cksync.event []",
            "probe cksync.stateUpdate",
            "write syncData",
            "trace state.persisted [OBX-23]",
            "probe outbox.state.saved",
            "trace cksync.retry []",
            "timer outbox.private.retry-send +7s",
            "trace cksync.event []",
            "probe cksync.didSendChanges",
            "probe sync.done",
        ])
    }

    /// OBX-27: an account change starts a numbered account check.
    @Test func anAccountChangeStartsAnAccountCheck() {
        let rig = launchedRig()
        rig.account = nil
        rig.accountStatus = .noAccount
        #expect(rig.describe(rig.deliver(.accountChanged)) == [
            "trace account.check [OBX-27]",
            "timer outbox.private.fetch +1s",
        ])
    }

    /// OBX-4: a reattached observer only notes that models saved meanwhile have no row.
    @Test func anAttachedObserverIsOnlyTraced() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.observerAttached)) == [
            "trace observer.attached [OBX-4]",
        ])
    }

    /// OBX-10, OBX-9, OBX-3, OBX-7: Sync Now reconciles, then sends before it fetches.
    @Test func syncNowReconcilesThenSends() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.appCall(.syncNow, waiter: WaiterID(2)))) == [
            "trace sync.now [OBX-10]",
            "timer outbox.private.state-update +0.1s",
            "timer outbox.private.send +1s",
            "trace zones.ensured [OBX-3]",
            "trace outbox.reconciled [OBX-7]",
            "probe outbox.reconciled",
            "trace send.detached [OBXW-12, OBX-9]",
            "trace cksync.event []",
            "probe cksync.willSendChanges",
            "probe sync.start",
            "probe download.start",
            "probe download.done",
            "probe upload.start",
        ])
    }

    /// A killed incarnation's request that reaches the cloud after the kill is answered to
    /// the new one: an answer to no request in flight changes nothing.
    @Test func anAnswerToNoRequestInFlightIsIgnored() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.response(RequestID(1),
            .accountStatus(.available)))) == [])
        #expect(rig.describe(rig.deliver(.response(RequestID(900_000_001),
            .accountStatus(.available)))) == [])
    }

    /// OBX-8: a timer the shared engine armed before it was deactivated finds no engine, and
    /// changes nothing.
    @Test func aTimerOfTheDeactivatedSharedEngineIsIgnored() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.timer(EngineTimer("outbox.shared.fetch")))) == [])
    }
}
