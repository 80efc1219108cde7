import CloudSim
import History
import Kernel
import LocalStore
import SyncContract
import Testing
import TestSupport

/// The history engine handed one event in a known state: the effects it returns, exactly and
/// in order (event in, effects out), on the shared `EngineRig`.
@Suite struct HistoryEngineEventTests {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ]),
    ])
    static let zone = ZoneID(owner: "alice", name: HistoryEngine.zoneName)

    func makeRig() -> EngineRig<HistoryEngine> {
        EngineRig(schema: Self.schema, accounts: ["alice"], appZoneName: HistoryEngine.zoneName) {
            HistoryEngine(schema: Self.schema)
        }
    }

    /// HIS-42: a silent push before `enable()` is ignored: no debounce window opens.
    @Test func aSilentPushBeforeEnableIsIgnored() {
        let rig = makeRig()
        #expect(rig.handle(.push) == [
            .trace("push.ignored", [TraceField("reason", "disabled")], ["HIS-42"]),
        ])
    }

    /// HIS-13: a silent push on an enabled engine (re)starts the 1 s debounce window.
    @Test func aSilentPushStartsTheDebounceWindow() {
        let rig = makeRig()
        rig.launch()
        #expect(rig.handle(.push) == [
            .trace("push.debounced", [TraceField("window", 1_000_000)], ["HIS-13"]),
            .setTimer("debounce", .seconds(1)),
        ])
    }

    /// HIS-34: nothing observes the account; its change is only traced.
    @Test func anAccountChangeIsIgnored() {
        let rig = makeRig()
        rig.launch()
        #expect(rig.handle(.accountChanged) == [
            .trace("account.change-ignored", [TraceField("account", "alice")], ["HIS-34"]),
        ])
    }

    /// HIS-10: a save by the app starts a push operation, which passes `sync.start` first.
    @Test func anAppSaveStartsAPush() throws {
        let rig = makeRig()
        rig.launch()
        try rig.insert("Note", ["title": .string("A")])
        #expect(rig.handle(.storeSaved) == [
            .trace("save.observed", [TraceField("position", 1)], ["HIS-10"]),
            .trace("operation.start", [
                TraceField("operation", 2),
                TraceField("trigger", "save"),
                TraceField("phases", .list(["push"])),
            ], []),
            .probe("sync.start"),
        ])
    }

    /// HIS-5: a save by the sync author is the engine's own write: no push (the loop guard).
    @Test func aSaveByTheSyncAuthorIsNotPushed() throws {
        let rig = makeRig()
        rig.launch()
        try rig.insert("Note", ["title": .string("A")], author: HistoryEngine.author)
        #expect(rig.handle(.storeSaved) == [])
    }

    /// HIS-11: a save while a push runs sets `pushPending` instead of a second push.
    @Test func aSaveDuringAPushIsDeduplicated() throws {
        let rig = makeRig()
        rig.launch()
        try rig.insert("Note", ["title": .string("A")])
        rig.handle(.storeSaved)
        try rig.insert("Note", ["title": .string("B")])
        #expect(rig.handle(.storeSaved) == [
            .trace("save.observed", [TraceField("position", 2)], ["HIS-10"]),
            .trace("push.deduplicated", [
                TraceField("trigger", "save"),
                TraceField("during", "a push"),
            ], ["HIS-11"]),
        ])
    }

    /// HIS-31, HIS-14: offline is only noted; back online, the engine pushes (and only pushes).
    @Test func backOnlineTheEnginePushes() {
        let rig = makeRig()
        rig.launch()
        #expect(rig.handle(.networkChanged(online: false)) == [
            .trace("network.offline", [], ["HIS-31"]),
        ])
        #expect(rig.handle(.networkChanged(online: true)) == [
            .trace("network.online", [TraceField("note", "one push; no pull")], ["HIS-14"]),
            .trace("operation.start", [
                TraceField("operation", 2),
                TraceField("trigger", "reconnect"),
                TraceField("phases", .list(["push"])),
            ], []),
            .probe("sync.start"),
        ])
        // Online while never offline: nothing to do.
        #expect(rig.handle(.networkChanged(online: true)) == [])
    }

    /// HIS-29: a throttled push request stops the push and pauses for the retry-after.
    @Test func aThrottledPushBacksOffForTheRetryAfter() throws {
        let rig = makeRig()
        rig.launch()
        let request = try pushWaitingForItsAnswer(rig)
        let throttled = CloudError(.requestRateLimited, message: "slow down",
                                   retryAfter: .seconds(7))
        #expect(rig.handle(.response(request, .failure(throttled))) == [
            .trace("push.failed", [
                TraceField("request", "inserts"),
                TraceField("error", "requestRateLimited"),
                TraceField("syncError", "rateLimited"),
                TraceField("note", "the push stops; the token stays staged"),
            ], ["HIS-17", "HIS-18", "HIS-33"]),
            .trace("recovery", [
                TraceField("error", "requestRateLimited"),
                TraceField("syncError", "rateLimited"),
                TraceField("action", "backoff"),
            ], ["HIS-29", "HIS-33"]),
            .trace("backoff.start", [
                TraceField("reason", "rateLimited"),
                TraceField("pause", 7_000_000),
                TraceField("retryAfter", 7_000_000),
            ], ["HIS-29"]),
            .setTimer("backoff", .seconds(7)),
            .probe("upload.done"),
        ])
    }

    /// HIS-29: the end of the backoff pushes; its operation passes `history.backoff.end`
    /// right after `sync.start`.
    @Test func theEndOfABackoffPushes() throws {
        let rig = makeRig()
        rig.launch()
        let request = try pushWaitingForItsAnswer(rig)
        rig.handle(.response(request, .failure(CloudError(.requestRateLimited))))
        rig.settle()
        #expect(rig.handle(.timer(.init("backoff"))) == [
            .trace("backoff.end", [TraceField("reason", "rateLimited")], ["HIS-29", "HIS-29"]),
            .trace("operation.start", [
                TraceField("operation", 3),
                TraceField("trigger", "backoff-end"),
                TraceField("phases", .list(["push"])),
            ], []),
            .probe("sync.start"),
        ])
    }

    /// HIS-21, HIS-22: a fetched page is stored in one save as the sync author, before the
    /// zone token (HIS-22 step 3).
    @Test func aFetchedPageIsStoredInOneSave() throws {
        let rig = makeRig()
        rig.launch()
        rig.cloudSaves(CloudRecord(recordType: "Note", recordName: "remote-1", zone: Self.zone,
                                   fields: ["title": .string("From the tablet")]),
                       changedKeys: ["title"])
        rig.handle(.push)
        rig.handle(.timer(.init("debounce")))
        rig.run(untilProbe: "download.page.fetched")
        #expect(rig.pending == [.probe("download.page.fetched", .sole)])
        rig.pending = []
        #expect(rig.handle(.resume(.sole)) == [
            .write(store: true, syncData: true),
            .trace("pull.page.stored", [
                TraceField("zone", .string(Self.zone.description)),
                TraceField("inserted", 1),
                TraceField("updated", 0),
                TraceField("unchanged", 0),
                TraceField("deleted", 0),
            ], ["HIS-21", "HIS-22"]),
            .probe("download.page.stored"),
        ])
        let notes = rig.store.models(of: "Note")
        #expect(notes.map { $0.values["title"] } == [.string("From the tablet")])
        let saved = rig.store.history(after: 0).map(\.author)
        #expect(saved == [HistoryEngine.author])
    }

    /// A push of a new note whose request left and whose answer has not come: returns the
    /// request, never answered.
    func pushWaitingForItsAnswer(_ rig: EngineRig<HistoryEngine>) throws -> RequestID {
        try rig.insert("Note", ["title": .string("A")])
        rig.handle(.storeSaved)
        rig.run(untilProbe: "upload.sent")
        let request = try #require(rig.sent.last).id
        rig.pending = []
        rig.handle(.resume(.sole))
        precondition(rig.pending.isEmpty, "the push should wait for its answer")
        return request
    }

    /// An answer that comes while the operation is stopped at a probe point is kept, not
    /// dropped: the world delivers it whenever it arrives; the operation reads it after `.resume`.
    @Test func anAnswerWhileStoppedAtAProbeWaitsForTheResume() throws {
        let rig = makeRig()
        rig.launch()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.run(untilProbe: "upload.sent")
        guard case .request(let id, _)? = rig.pending.first else {
            Issue.record("the push's request is not pending")
            return
        }
        #expect(rig.handle(rig.answer(id)) == [])
        let resumed = try #require(rig.resumeFirstProbe())
        #expect(rig.deliver(resumed).contains { $0.probePoint == "upload.done" })
    }

    /// HIS-42, HIS-14: back online after `disable()`, the engine only notes it: no push.
    @Test func backOnlineWhileDisabledNothingRuns() {
        let rig = makeRig()
        rig.launch()
        rig.deliver(.appCall(.stop, waiter: nil))
        rig.deliver(.networkChanged(online: false))
        #expect(rig.handle(.networkChanged(online: true)) == [
            .trace("network.online", [TraceField("note", "one push; no pull")], ["HIS-14"]),
        ])
    }

    /// HIS-42: `sync` after `disable()` runs nothing; its waiter ends at once.
    @Test func aSyncWhileDisabledEndsItsWaiter() {
        let rig = makeRig()
        rig.launch()
        rig.deliver(.appCall(.stop, waiter: nil))
        #expect(rig.handle(.appCall(.syncNow, waiter: WaiterID(5))) == [
            .trace("sync.requested", [], ["HIS-15"]),
            .trace("sync.ignored", [TraceField("reason", "disabled")], ["HIS-42"]),
            .completed(WaiterID(5)),
        ])
    }

    /// A request of a killed incarnation that reached the cloud after the relaunch is answered
    /// to the new engine, which never sent it: ignored.
    @Test func anAnswerToARequestNeverSentIsIgnored() {
        let rig = makeRig()
        rig.launch()
        let stale = CloudResponse.failure(CloudError(.networkFailure, message: "stale"))
        #expect(rig.handle(.response(RequestID(999), stale)) == [])
    }
}

extension EngineRig {
    /// Delivers one event; its effects as values compared in full, details included.
    @discardableResult
    func handle(_ event: EngineEvent) -> [RigEffect] { deliver(event).map(RigEffect.init) }
}
