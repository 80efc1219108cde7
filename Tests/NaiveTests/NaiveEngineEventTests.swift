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
}
