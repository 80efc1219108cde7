import CloudSim
import Kernel
import LocalStore
import Naive
import SyncContract
import Testing
import TestSupport

/// The naive engine handed one event in a known state: the effects it returns, exactly and in
/// order (event in, effects out), on the shared `EngineRig`.
@Suite struct NaiveEngineEventTests {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ]),
    ])

    func makeRig() -> EngineRig<NaiveEngine> {
        EngineRig(schema: Self.schema, appZoneName: NaiveEngine.zoneName) {
            NaiveEngine(schema: Self.schema)
        }
    }

    /// A rig whose launch ran to its end, timers and all.
    func launchedRig() -> EngineRig<NaiveEngine> {
        let rig = makeRig()
        rig.deliver(.launch(waiter: nil))
        rig.settleWithTimers()
        return rig
    }

    /// NAIVE-14: a launch has nothing pending to resend; it checks its zone first.
    @Test func aLaunchResendsNothing() {
        let rig = makeRig()
        #expect(rig.describe(rig.deliver(.launch(waiter: WaiterID(1)))) == [
            "trace launch.nothing-pending [NAIVE-14]",
            "send fetchZone",
        ])
    }

    /// NAIVE-1, NAIVE-4, NAIVE-5: an app save names the record and uploads it at once.
    @Test func anAppSaveIsUploadedAtOnce() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        #expect(rig.describe(rig.deliver(.storeSaved)) == [
            "trace record.named [NAIVE-1]",
            "trace save.created [NAIVE-4, NAIVE-5]",
            "write syncData",
            "probe sync.start",
        ])
        #expect(rig.timers.isEmpty)
    }

    /// NAIVE-14: the engine's own save (a download's) is not uploaded.
    @Test func aDownloadsSaveIsNotUploaded() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")], author: NaiveEngine.author)
        #expect(rig.describe(rig.deliver(.storeSaved)) == [])
    }

    /// NAIVE-7: a push runs a download.
    @Test func aPushDownloads() {
        let rig = launchedRig()
        #expect(rig.describe(rig.deliver(.push)) == [
            "trace download.started [NAIVE-7]",
            "probe sync.start",
        ])
    }

    /// NAIVE-7: only a push or a launch downloads; coming back online does not.
    @Test func backOnlineNothingRuns() {
        let rig = launchedRig()
        rig.isOnline = false
        #expect(rig.describe(rig.deliver(.networkChanged(online: false))) == [])
        rig.isOnline = true
        #expect(rig.describe(rig.deliver(.networkChanged(online: true))) == [
            "trace network.online-ignored [NAIVE-7]",
        ])
    }

    /// NAIVE-12: account changes are not observed.
    @Test func anAccountChangeIsIgnored() {
        let rig = launchedRig()
        rig.account = nil
        rig.accountStatus = .noAccount
        #expect(rig.describe(rig.deliver(.accountChanged)) == [
            "trace account.change-ignored [NAIVE-12]",
        ])
    }

    /// NAIVE-5: two operations stopped at their probe points; a `.resume` goes on with the one
    /// that stopped first, whichever ticket it carries (the order a trigger can interleave).
    @Test func aResumeGoesOnWithTheFirstStoppedWhateverItsTicket() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        try rig.insert("Note", ["title": .string("B")])
        rig.deliver(.storeSaved)
        let tickets = rig.pending.compactMap { pending -> ProbeTicket? in
            if case .probe(_, let ticket) = pending { return ticket }
            return nil
        }
        try #require(tickets.count == 2)
        rig.pending.removeAll()
        let effects = rig.deliver(.resume(tickets[1]))
        guard effects.count == 1, case .probe(let point, let ticket) = effects[0] else {
            Issue.record("one probe point expected, got \(rig.describe(effects))")
            return
        }
        #expect(point == "download.start")
        #expect(ticket == tickets[0])
    }

    /// An answer that comes while the save is stopped at `upload.sent` is kept, not dropped:
    /// the world delivers it whenever it arrives; the save reads it after its `.resume`.
    @Test func anAnswerWhileStoppedAtAProbeWaitsForTheResume() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.run(untilProbe: "upload.sent")
        guard case .request(let id, _)? = rig.pending.first else {
            Issue.record("the save's request is not pending")
            return
        }
        #expect(rig.deliver(rig.answer(id)).isEmpty)
        let resumed = try #require(rig.resumeFirstProbe())
        #expect(rig.describe(rig.deliver(resumed)).contains("probe upload.done"))
    }

    /// A request of a killed incarnation that reached the cloud after the relaunch is answered
    /// to the new engine, which never sent it: ignored.
    @Test func anAnswerToARequestNeverSentIsIgnored() {
        let rig = launchedRig()
        let stale = CloudResponse.failure(CloudError(.networkFailure, message: "stale"))
        #expect(rig.deliver(.response(RequestID(999), stale)).isEmpty)
    }
}
