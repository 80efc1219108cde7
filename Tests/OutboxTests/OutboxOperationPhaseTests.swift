import CloudSim
import Kernel
import LocalStore
@testable import Outbox
import SyncContract
import Testing
import TestSupport

/// The outbox engine's per-scope operation phases: one event in, the phase (and effects) out.
/// Each CKSyncEngine instance (private, shared) has its own phase and its operation's state.
@Suite struct OutboxOperationPhaseTests {
    static let schema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
        ]),
    ])

    static func makeEngine() -> OutboxEngine {
        OutboxEngine(schema: schema, recordingSchema: schema)
    }

    func launchedRig() -> EngineRig<OutboxEngine> {
        let rig = EngineRig(schema: Self.schema, appZoneName: OutboxEngine.mainZoneName) {
            Self.makeEngine()
        }
        rig.deliver(.launch(waiter: nil))
        rig.settleWithTimers()
        return rig
    }

    func phase(_ rig: EngineRig<OutboxEngine>, _ scope: DatabaseScope = .privateDatabase)
        -> String {
        switch rig.engine.operation(scope).phase {
        case .idle: "idle"
        case .fetching: "fetching"
        case .sending: "sending"
        }
    }

    /// `willFetchChanges` starts the private scope's fetch; its `didFetchChanges` ends it.
    @Test func aFetchRunsFromWillFetchToDidFetch() {
        let rig = launchedRig()
        #expect(phase(rig) == "idle")
        rig.deliver(.push)
        rig.settle()
        let effects = rig.describe(rig.deliver(rig.fire(EngineTimer("outbox.private.fetch"))))
        #expect(effects.contains("probe sync.start"))
        #expect(phase(rig) == "fetching")
        #expect(phase(rig, .sharedDatabase) == "idle")
        #expect(rig.engine.operation(.privateDatabase).phase.fetch.seen.isEmpty)
        rig.settle()
        #expect(phase(rig) == "idle")
    }

    /// `willSendChanges` starts a send that waits at `upload.start`; the batch built at its
    /// resume is in flight until `didSendChanges` ends the send.
    @Test func aSendRunsFromWillSendToDidSend() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.settle()
        let effects = rig.describe(rig.deliver(rig.fire(EngineTimer("outbox.private.send"))))
        #expect(effects.last == "probe upload.start")
        #expect(phase(rig) == "sending")
        let waiting = rig.engine.operation(.privateDatabase).phase.send
        #expect(waiting.batchPause?.resumeAt != nil)
        #expect(waiting.inFlight.isEmpty)
        rig.run(untilProbe: "upload.sent")
        let sending = rig.engine.operation(.privateDatabase).phase.send
        #expect(sending.batchPause == nil)
        #expect(sending.inFlight.count == 1)
        rig.settle()
        #expect(phase(rig) == "idle")
    }

    /// OBXW-3: an edit of a record in flight is noted in its scope's send.
    @Test func anEditWhileInFlightIsNotedInTheSend() throws {
        let rig = launchedRig()
        let id = try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.settle()
        rig.deliver(rig.fire(EngineTimer("outbox.private.send")))
        rig.run(untilProbe: "upload.sent")
        try rig.save([.update(id, values: ["title": .attribute(.string("B"))])])
        rig.deliver(.storeSaved)
        let send = rig.engine.operation(.privateDatabase).phase.send
        #expect(send.editedInFlight == send.inFlight)
        var rest: [String] = []
        while let event = rig.next() { rest += rig.describe(rig.deliver(event)) }
        #expect(rest.contains("trace outbox.edit-lost [OBXW-3, OBX-13]"))
        #expect(phase(rig) == "idle")
    }

    /// Ignored on purpose: a `stateUpdate` outside any operation (coalesced after added
    /// changes) is persisted and closes no page.
    @Test func aStateUpdateOutsideAnOperationClosesNoPage() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.settle()
        let effects = rig.describe(rig.deliver(
            rig.fire(EngineTimer("outbox.private.state-update"))))
        #expect(effects.contains("probe outbox.state.saved"))
        #expect(!effects.contains("probe download.page.saved"))
        #expect(phase(rig) == "idle")
    }

    /// Ignored on purpose: `willFetchRecordZoneChanges` adds nothing; the zone's fetch goes on.
    @Test func willFetchRecordZoneChangesAddsNothing() throws {
        let rig = launchedRig()
        try rig.insert("Note", ["title": .string("A")])
        rig.deliver(.storeSaved)
        rig.settleWithTimers()
        rig.deliver(.push)
        rig.settle()
        rig.deliver(rig.fire(EngineTimer("outbox.private.fetch")))
        var found = false
        while !found, let event = rig.next() {
            let lines = rig.describe(rig.deliver(event))
            guard let at = lines.firstIndex(of: "probe cksync.willFetchRecordZoneChanges") else {
                continue
            }
            found = true
            #expect(lines[at + 1].hasPrefix("send fetchZoneChanges"))
            #expect(phase(rig) == "fetching")
        }
        #expect(found)
    }

    /// The defect the per-scope phases remove: one database's operation ending leaves the
    /// other's running operation and its state alone.
    @Test func oneScopesOperationLeavesTheOthersAlone() {
        let engine = Self.makeEngine()
        let send = SendRun()
        send.inFlight = ["r1"]
        send.editedInFlight = ["r1"]
        send.uploadDonePassed = true
        engine.begin(.sending(send), scope: .privateDatabase)
        engine.begin(.fetching(FetchRun()), scope: .sharedDatabase)
        engine.fetch(.sharedDatabase).tokenExpired = true
        engine.end(scope: .sharedDatabase)
        let kept = engine.operation(.privateDatabase).phase.send
        #expect(kept.inFlight == ["r1"])
        #expect(kept.editedInFlight == ["r1"])
        #expect(kept.uploadDonePassed)
        #expect(engine.isRunningOperation)
        engine.begin(.fetching(FetchRun()), scope: .sharedDatabase)
        #expect(!engine.operation(.sharedDatabase).phase.fetch.tokenExpired)
    }

    /// Impossible: a fetch's state read in a scope that runs no fetch.
    @Test func aFetchStateOutsideAFetchTraps() async {
        await #expect(processExitsWith: .failure) {
            let engine = OutboxOperationPhaseTests.makeEngine()
            _ = engine.operation(.sharedDatabase).phase.fetch
        }
    }

    /// Impossible: a pause marked for a scope that runs no operation (a page or a send
    /// pauses only inside its operation).
    @Test func aPauseWithoutAnOperationTraps() async {
        await #expect(processExitsWith: .failure) {
            let engine = OutboxOperationPhaseTests.makeEngine()
            engine.markPause(scope: .privateDatabase, resumeAt: 1)
        }
    }

    /// Impossible: a second operation begun in a scope whose operation runs.
    @Test func aSecondOperationInAScopeTraps() async {
        await #expect(processExitsWith: .failure) {
            let engine = OutboxOperationPhaseTests.makeEngine()
            engine.begin(.sending(SendRun()), scope: .privateDatabase)
            engine.begin(.fetching(FetchRun()), scope: .privateDatabase)
        }
    }
}
