import CloudSim
import Kernel
import LocalStore
import Naive
import SyncContract

/// A one-device test bench for the naive engine, without the harness: it hands the engine
/// events over a disk, carries out its effects at once (a request is answered by a real
/// `CloudService` with no latency, a probe point is resumed at once, writes go to the disk)
/// and keeps timers for the test to fire.
final class NaiveRig {
    let cloud: CloudService
    let schema: Schema
    var engine: NaiveEngine
    var store: Store
    var syncData = SyncDataBox()
    var names = Xoshiro256StarStar(seed: 7)
    var now = SimTime.seconds(1)
    var account: String? = "alice"
    var isOnline = true
    /// Requests sent, in order.
    var requests: [CloudRequest] = []
    var probes: [String] = []
    var traces: [(kind: String, rules: [String])] = []
    var timers: [EngineTimer: SimTime] = [:]
    var completed: [WaiterID] = []
    /// Each effect's short name, in order (`write`, `send`, `probe`, …).
    var effectLog: [String] = []

    static let noteSchema = Schema(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "body", type: .string, isOptional: true),
        ]),
    ])

    init(schema: Schema = NaiveRig.noteSchema, cloud: CloudService? = nil) {
        self.schema = schema
        self.cloud = cloud ?? CloudService(configuration: CloudConfiguration(
            accounts: ["alice", "bob"], appZoneName: NaiveEngine.zoneName))
        engine = NaiveEngine(schema: schema)
        store = Store(schema: schema)
    }

    var client: CloudClient { CloudClient(device: "phone", account: account) }

    var data: NaiveSyncData { syncData.contents(as: NaiveSyncData.self) ?? NaiveSyncData() }

    var observation: any EngineObservation {
        NaiveProfile.profile.observe(syncData, running: engine)
    }

    /// Delivers an event and everything that follows from it at once.
    func deliver(_ event: EngineEvent) {
        var queue: [EngineEvent] = [event]
        var steps = 0
        while !queue.isEmpty {
            steps += 1
            precondition(steps < 10_000, "the engine does not come to rest")
            let next = queue.removeFirst()
            let conditions = DeviceConditions(
                now: now, device: "phone", account: account,
                accountStatus: account == nil ? .noAccount : .available,
                isOnline: isOnline, isDiskFull: false)
            let effects = engine.handle(next, conditions: conditions, store: store,
                                        syncData: syncData, names: &names)
            for effect in effects {
                switch effect {
                case .send(let id, let request):
                    effectLog.append("send")
                    requests.append(request)
                    let response = isOnline
                        ? cloud.handle(request, from: client, now: now).response
                        : .failure(CloudError(.networkUnavailable, message: "offline"))
                    queue.append(.response(id, response))
                case .setTimer(let timer, let delay):
                    effectLog.append("timer")
                    timers[timer] = now + delay
                case .cancelTimer(let timer):
                    timers[timer] = nil
                case .probe(let name, let ticket):
                    effectLog.append("probe")
                    probes.append(name)
                    queue.append(.resume(ticket))
                case .trace(let kind, _, let rules):
                    traces.append((kind, rules))
                case .completed(let waiter), .failed(let waiter, _):
                    effectLog.append("completed")
                    completed.append(waiter)
                case .write(let write):
                    effectLog.append("write")
                    if let written = write.store { store = written }
                    if let written = write.syncData { syncData = written }
                }
            }
        }
    }

    /// The app saves one transaction and tells the engine.
    func save(_ operations: Transaction.Operation...) throws {
        var transaction = Transaction()
        for operation in operations { transaction.append(operation) }
        try store.save(transaction, author: "app")
        deliver(.storeSaved)
    }

    func insertNote(title: String, body: String? = nil) throws -> ModelID {
        let id = store.makeModelID()
        var values: [String: PropertyValue] = ["title": .attribute(.string(title))]
        if let body { values["body"] = .attribute(.string(body)) }
        try save(.insert(id, entity: "Note", values: values))
        return id
    }

    /// Fires a timer the engine set, as if its time had come.
    func fire(_ timer: EngineTimer) {
        guard let due = timers.removeValue(forKey: timer) else { return }
        now = max(now, due)
        deliver(.timer(timer))
    }

    /// A kill and a launch: new memory over the same disk.
    func relaunch() {
        engine = NaiveEngine(schema: schema)
        timers = [:]
        deliver(.launch(waiter: WaiterID(1)))
    }

    func fired(_ rule: String) -> Bool { traces.contains { $0.rules.contains(rule) } }

    /// The modify requests sent, as (saves, deletes, policy).
    var modifies: [(saves: [RecordSave], deletes: [String], policy: SavePolicy)] {
        requests.compactMap { request in
            if case .modifyRecords(_, _, let saves, let deletes, let policy, _) = request {
                return (saves, deletes, policy)
            }
            return nil
        }
    }
}
