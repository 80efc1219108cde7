import CKSyncEngineSim
import CloudSim
import Kernel
import SyncContract

/// The delegate of a test device: it logs every event, keeps the last state serialization
/// (what the app persists), the records it would send (nil: skipped) and what it fetched.
final class Recorder: CKSyncEngineDelegate {
    var events: [CKSyncEngine.Event] = []
    var serialization: CKSyncEngine.State.Serialization?
    /// The local records the provider answers with; a missing one is skipped (nil).
    var records: [RecordID: RecordSave] = [:]
    var fetched: [String: CloudRecord] = [:]
    var fetchedDeletions: [String] = []
    var batchRequests = 0
    /// Called after an event is logged (to act inside a callback).
    var onEvent: ((CKSyncEngine.Event, CKSyncEngine) -> Void)?

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) {
        events.append(event)
        switch event {
        case .stateUpdate(let update):
            serialization = update.stateSerialization
        case .fetchedRecordZoneChanges(let changes):
            for record in changes.modifications { fetched[record.recordName] = record }
            for deletion in changes.deletions {
                fetched[deletion.recordID.recordName] = nil
                fetchedDeletions.append(deletion.recordID.recordName)
            }
        default:
            break
        }
        onEvent?(event, syncEngine)
    }

    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) -> CKSyncEngine.RecordZoneChangeBatch? {
        batchRequests += 1
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.contains($0.recordID) }
        return CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { self.records[$0] }
    }

    /// Event names, with the zone for the per-zone events.
    var log: [String] {
        events.map { event in
            switch event {
            case .willFetchRecordZoneChanges(let zone): return "willFetchRecordZoneChanges(\(zone.name))"
            case .didFetchRecordZoneChanges(let zone, let error):
                return "didFetchRecordZoneChanges(\(zone.name)\(error.map { ", \($0.code)" } ?? ""))"
            default: return event.name
            }
        }
    }

    /// The log without `stateUpdate`s.
    var flow: [String] { log.filter { $0 != "stateUpdate" } }

    var sentRecordZoneChanges: [CKSyncEngine.SentRecordZoneChanges] {
        events.compactMap { if case .sentRecordZoneChanges(let sent) = $0 { return sent } else { return nil } }
    }

    func clear() { events = [] }
}

/// One device: an engine for its private database, its delegate, its timers and the answers
/// waiting for it.
final class TestDevice {
    let name: String
    var client: CloudClient
    var engine: CKSyncEngine
    var recorder = Recorder()
    var automaticallySync: Bool
    /// Lookup only; the earliest is found by sorting.
    var timers: [EngineTimer: SimTime] = [:]
    var inbox: [(RequestID, CloudResponse)] = []
    var pushes = 0
    /// Every request sent, with its time.
    var requests: [(SimTime, CloudRequest)] = []

    init(name: String, account: String, automaticallySync: Bool) {
        self.name = name
        client = CloudClient(device: name, account: account)
        self.automaticallySync = automaticallySync
        engine = CKSyncEngine(.init(
            database: .privateDatabase, stateSerialization: nil, delegate: recorder,
            automaticallySync: automaticallySync))
    }

    func zone(_ name: String) -> ZoneID { ZoneID(owner: client.account ?? "", name: name) }

    func recordID(_ name: String, in zone: String) -> RecordID { RecordID(recordName: name, zoneID: self.zone(zone)) }

    /// A local record the provider hands out.
    func makeRecord(_ name: String, in zone: String, title: String) {
        let record = CloudRecord(recordType: "Note", recordName: name, zone: self.zone(zone), fields: ["title": .string(title)])
        recorder.records[recordID(name, in: zone)] = RecordSave(record: record, changedKeys: ["title"])
    }
}

/// A cloud and devices, driven the way the world drives a device: every effect carried out in
/// order, answers delivered at once (no latency), pushes delivered, timers fired in simulated
/// time.
final class TestWorld {
    let cloud: CloudService
    var now = SimTime.zero
    var devices: [TestDevice] = []

    init(accounts: [String] = ["alice"]) {
        cloud = CloudService(configuration: CloudConfiguration(accounts: accounts))
    }

    @discardableResult
    func device(_ name: String, account: String = "alice", automaticallySync: Bool = false) -> TestDevice {
        let device = TestDevice(name: name, account: account, automaticallySync: automaticallySync)
        devices.append(device)
        apply(device.engine.takeEffects(), on: device)
        return device
    }

    func apply(_ effects: [EngineEffect], on device: TestDevice) {
        for effect in effects {
            switch effect {
            case .send(let id, let request):
                device.requests.append((now, request))
                let outcome = cloud.handle(request, from: device.client, now: now)
                device.inbox.append((id, outcome.response))
                for name in outcome.pushes {
                    devices.first { $0.name == name }?.pushes += 1
                }
            case .setTimer(let timer, let after):
                device.timers[timer] = now + after
            case .cancelTimer(let timer):
                device.timers[timer] = nil
            case .probe, .trace, .completed, .failed, .write:
                break
            }
        }
    }

    /// The app changes its state (outside any callback), then the effects that caused.
    func edit(_ device: TestDevice, _ change: (CKSyncEngine.State) -> Void) {
        change(device.engine.state)
        apply(device.engine.takeEffects(), on: device)
    }

    func fetch(_ device: TestDevice) {
        apply(device.engine.fetchChanges(), on: device)
        run()
    }

    func send(_ device: TestDevice) {
        apply(device.engine.sendChanges(), on: device)
        run()
    }

    /// Runs until nothing is left before `limit`: answers first, then pushes, then the
    /// earliest timer (by time, then device and timer name).
    func run(until limit: SimTime = .max, stopWhenSent kind: String? = nil) {
        let sentBefore = devices.map(\.requests.count)
        func stop() -> Bool {
            guard let kind else { return false }
            return zip(devices, sentBefore).contains { device, before in
                device.requests.dropFirst(before).contains { $0.1.kind == kind }
            }
        }
        for _ in 0..<100_000 {
            if stop() { return }
            if let device = devices.first(where: { !$0.inbox.isEmpty }) {
                let (id, response) = device.inbox.removeFirst()
                guard let effects = device.engine.handleResponse(id, response) else {
                    preconditionFailure("an answer the engine does not know: \(id)")
                }
                apply(effects, on: device)
                continue
            }
            if let device = devices.first(where: { $0.pushes > 0 }) {
                device.pushes -= 1
                apply(device.engine.handlePush(), on: device)
                continue
            }
            let due = devices.flatMap { device in device.timers.map { (time: $0.value, device: device.name, timer: $0.key) } }
                .sorted { ($0.time, $0.device, $0.timer.rawValue) < ($1.time, $1.device, $1.timer.rawValue) }
            guard let next = due.first, next.time <= limit else { break }
            let device = devices.first { $0.name == next.device }!
            now = max(now, next.time)
            device.timers[next.timer] = nil
            guard let effects = device.engine.handleTimer(next.timer) else {
                preconditionFailure("a timer the engine does not know: \(next.timer)")
            }
            apply(effects, on: device)
        }
    }

    /// Advances simulated time, firing what falls due.
    func wait(_ span: SimTime) {
        let end = now + span
        run(until: end)
        now = max(now, end)
    }

    /// A kill and a relaunch: memory (timers, answers in flight, the engine) is gone; the new
    /// engine starts from the last serialization the delegate received.
    func relaunch(_ device: TestDevice) {
        device.timers = [:]
        device.inbox = []
        let records = device.recorder.records
        let serialization = device.recorder.serialization
        device.recorder = Recorder()
        device.recorder.records = records
        device.recorder.serialization = serialization
        device.engine = CKSyncEngine(.init(
            database: .privateDatabase, stateSerialization: serialization, delegate: device.recorder,
            automaticallySync: device.automaticallySync))
        apply(device.engine.takeEffects(), on: device)
    }
}
