import CloudSim
import Kernel
import LocalStore
import Mirror
import SyncContract
import Testing
import TestSupport

/// The mirror engine handed one event in a known state: the effects it returns, exactly and
/// in order (event in, effects out), on the shared `EngineRig`.
@Suite struct MirrorEngineEventTests {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string, isOptional: true),
        ]),
    ])
    static let zone = ZoneID(owner: "alice", name: MirrorCodec.zoneName)

    func makeRig(schema: Schema = Self.schema) -> EngineRig<MirrorEngine> {
        EngineRig(schema: schema, appZoneName: MirrorCodec.zoneName) {
            MirrorEngine(schema: schema)
        }
    }

    /// A rig whose launch ran to its end, timers and all.
    func launchedRig() -> EngineRig<MirrorEngine> {
        let rig = makeRig()
        rig.deliver(.launch(waiter: nil))
        rig.settleWithTimers()
        return rig
    }

    /// MIR-9, MIR-6: a launch starts setup and queues the import and the export behind it.
    @Test func aLaunchRunsSetupThenQueuesImportAndExport() {
        let rig = makeRig()
        #expect(rig.describe(rig.deliver(.launch(waiter: WaiterID(1)))) == [
            "trace store.loaded [MIR-1, MIR-9]",
            "trace request.started [MIR-6]",
            "probe sync.start",
            "trace request.deferred [MIR-6]",
            "trace request.deferred [MIR-6]",
        ])
        #expect(rig.sent.isEmpty)
        #expect(rig.timers.isEmpty)
    }

    /// MIR-1, MIR-2: a model that fails validation fails the load; the launch ends at once and
    /// nothing is sent.
    @Test func aStoreThatFailsToLoadSynchronizesNothing() {
        let schema = Schema(entities: [
            EntityDescription(name: "Note", attributes: [
                AttributeDescription(name: "title", type: .string),
            ]),
        ])
        let rig = makeRig(schema: schema)
        #expect(rig.describe(rig.deliver(.launch(waiter: WaiterID(1)))) == [
            "trace store.load-failed [MIR-1, MIR-2, MIR-3, MIRW-7]",
            "completed 1",
            "probe mirror.store.load-failed",
        ])
    }

    /// MIR-7, MIR-4: an app save names the object's record and schedules an export 1 s later.
    @Test func anAppSaveSchedulesAnExport() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        #expect(rig.describe(rig.deliver(.storeSaved)) == [
            "write syncData",
            "trace record.named [MIR-4]",
            "timer export +1s",
            "trace export.scheduled [MIR-7, MIRW-10]",
            "write syncData",
        ])
        #expect(rig.timers == [EngineTimer("export"): .seconds(2)])
    }

    /// MIR-7: a second save within the second is coalesced: no second timer.
    @Test func aSecondSaveIsCoalesced() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        try rig.insert("Note", ["title": .string("B")])
        #expect(rig.describe(rig.deliver(.storeSaved)) == [
            "write syncData",
            "trace record.named [MIR-4]",
            "trace export.coalesced [MIR-7]",
            "write syncData",
        ])
        #expect(rig.timers == [EngineTimer("export"): .seconds(2)])
    }

    /// MIR-8: a push schedules an import 1 s later.
    @Test func aPushSchedulesAnImport() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.push)) == [
            "timer import +1s",
            "trace import.scheduled [MIR-8]",
        ])
    }

    /// MIR-10: back online with a local change waiting, the export runs at once.
    @Test func backOnlineTheWaitingExportRuns() throws {
        let rig = launchedRig()
        rig.isOnline = false
        #expect(rig.describe(rig.deliver(.networkChanged(online: false))) == [])
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.settleWithTimers()
        #expect(rig.engine.state == EngineState("waiting", "network"))
        rig.isOnline = true
        #expect(rig.describe(rig.deliver(.networkChanged(online: true))) == [
            "trace network.back [MIR-10]",
            "trace request.started [MIR-6]",
            "probe sync.start",
        ])
    }

    /// MIR-22: a throttled export fails and is retried after the error's retry-after.
    @Test func aThrottledExportIsRetriedAfterItsRetryAfter() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.deliver(rig.fire(EngineTimer("export")))
        rig.run(untilProbe: "upload.sent")
        let export = try #require(rig.sent.last)
        #expect(EffectLines.describe(export.request)
            == "modifyRecords \(MirrorCodec.zoneName) saves [\"CD_Note\"] deletes 0 changedKeys")
        rig.dropRequest(export.id)
        rig.settle()
        let throttled = CloudError(.requestRateLimited, message: "slow down",
                                   retryAfter: .seconds(7))
        #expect(rig.describe(rig.deliver(.response(export.id, .failure(throttled)))) == [
            "timer retry +7s",
            "trace request.failed [MIR-22]",
            "probe upload.done",
        ])
    }

    /// MIR-20: a sign-out is traced and queues setup, import and export (setup starts).
    @Test func anAccountChangeQueuesSetupImportAndExport() {
        let rig = launchedRig()
        rig.account = nil
        rig.accountStatus = .noAccount
        #expect(rig.describe(rig.deliver(.accountChanged)) == [
            "trace account.changed [MIR-20]",
            "trace request.started [MIR-6]",
            "probe sync.start",
            "trace request.deferred [MIR-6]",
            "trace request.deferred [MIR-6]",
        ])
    }

    /// MIR-11: `sync` cannot force a synchronization; it waits for the export that is due.
    @Test func syncOnlyWaits() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.observerAttached)) == [
            "trace observer.attached [MIR-29]",
            "timer export +1s",
            "trace export.scheduled [MIR-7, MIRW-10]",
        ])
        #expect(rig.describe(rig.deliver(.appCall(.syncNow, waiter: WaiterID(2)))) == [
            "trace sync.cannot-force [MIR-11, MIRW-10]",
        ])
        #expect(rig.endedWaiters.isEmpty)
    }

    /// MIR-15, MIR-28: a fetched page is applied and saved as the import's author, with its
    /// token in the same write.
    @Test func aFetchedPageIsSavedAsTheImportsAuthor() throws {
        let rig = launchedRig()
        let record = CloudRecord(
            recordType: "CD_Note", recordName: "remote-1", zone: Self.zone,
            fields: ["CD_entityName": .string("Note"), "CD_title": .string("From the tablet")])
        rig.cloudSaves(record, changedKeys: ["CD_entityName", "CD_title"])
        rig.deliver(.push)
        rig.deliver(rig.fire(EngineTimer("import")))
        rig.run(untilProbe: "download.page.fetched")
        let resume = try #require(rig.next())
        #expect(rig.describe(rig.deliver(resume)) == [
            "write store+syncData",
            "trace import.page.saved [MIR-15, MIR-28]",
            "probe download.page.stored",
        ])
        #expect(rig.store.models(of: "Note").map { $0.values["title"] }
            == [.string("From the tablet")])
        #expect(rig.store.history(after: 0).map(\.author).last == MirrorEngine.author)
    }

    /// MIR-2: with a store that did not load, the world's events still come (the resume of
    /// the load failure's probe point among them); nothing answers them.
    @Test func aStoreThatFailedToLoadIgnoresTheWorldsEvents() {
        let schema = Schema(entities: [
            EntityDescription(name: "Note", attributes: [
                AttributeDescription(name: "title", type: .string),
            ]),
        ])
        let rig = makeRig(schema: schema)
        rig.deliver(.launch(waiter: nil))
        let events: [EngineEvent] = [
            .resume(.sole), .storeSaved, .push, .storeReplaced, .observerAttached,
            .accountChanged, .networkChanged(online: false), .networkChanged(online: true),
        ]
        for event in events {
            #expect(rig.describe(rig.deliver(event)) == [], "\(event)")
        }
    }

    /// A killed incarnation's request that reaches the cloud after the kill is answered to
    /// the new one: an answer to no request in flight changes nothing.
    @Test func anAnswerToNoRequestInFlightIsIgnored() {
        let rig = launchedRig()
        #expect(rig.engine.isIdle(now: rig.now))
        #expect(rig.describe(rig.deliver(.response(RequestID(1),
            .accountStatus(.available)))) == [])
        #expect(rig.describe(rig.deliver(.response(RequestID(99),
            .accountStatus(.available)))) == [])
    }

    /// As above, while a request runs: an answer with another id than the one it awaits (or
    /// while it awaits none) changes nothing; its own answer then goes on as ever.
    @Test func anAnswerToAnotherRequestIsIgnoredWhileOneRuns() throws {
        let rig = makeRig()
        rig.deliver(.launch(waiter: nil))
        #expect(rig.describe(rig.deliver(.response(RequestID(7),
            .accountStatus(.available)))) == [])
        let resume = try #require(rig.next())
        rig.deliver(resume)
        let status = try #require(rig.sent.last)
        #expect(rig.describe(rig.deliver(.response(RequestID(status.id.rawValue + 1),
            .accountStatus(.available)))) == [])
        #expect(rig.describe(rig.deliver(rig.answer(status.id))) == ["send fetchUserRecordID"])
    }
}
