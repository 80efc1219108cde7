import CloudSim
import Kernel
import LocalStore
import Naive
import SyncContract
import TestSupport

/// The shared `EngineRig` run to rest for the naive engine's story tests: `deliver` hands it
/// an event and everything that follows from it at once (each request answered by the real
/// `CloudService`, each probe point resumed); timers wait for the test to fire them. It logs
/// what the effects did, for the tests to read.
final class NaiveRig {
    let rig: EngineRig<NaiveEngine>
    /// Requests sent, in order.
    var requests: [CloudRequest] = []
    var probes: [String] = []
    var traces: [(kind: String, rules: [String])] = []
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
        rig = EngineRig(schema: schema, appZoneName: NaiveEngine.zoneName, cloud: cloud) {
            NaiveEngine(schema: schema)
        }
    }

    var cloud: CloudService { rig.cloud }
    var engine: NaiveEngine { rig.engine }
    var store: Store {
        get { rig.store }
        set { rig.store = newValue }
    }
    var timers: [EngineTimer: SimTime] { rig.timers }
    var now: SimTime {
        get { rig.now }
        set { rig.now = newValue }
    }
    var isOnline: Bool {
        get { rig.isOnline }
        set { rig.isOnline = newValue }
    }

    var data: NaiveSyncData { rig.data }

    var observation: any EngineObservation {
        NaiveProfile.profile.observe(rig.syncData, running: rig.engine)
    }

    /// Delivers an event and everything that follows from it at once.
    func deliver(_ event: EngineEvent) {
        var next: EngineEvent? = event
        var steps = 0
        while let event = next {
            steps += 1
            precondition(steps < 10_000, "the engine does not come to rest")
            for effect in rig.deliver(event) { log(effect) }
            next = rig.next()
        }
    }

    private func log(_ effect: EngineEffect) {
        switch effect {
        case .send(_, let request):
            effectLog.append("send")
            requests.append(request)
        case .setTimer:
            effectLog.append("timer")
        case .cancelTimer:
            break
        case .probe(let name, _):
            effectLog.append("probe")
            probes.append(name)
        case .trace(let kind, _, let rules):
            traces.append((kind, rules))
        case .completed(let waiter), .failed(let waiter, _):
            effectLog.append("completed")
            completed.append(waiter)
        case .write:
            effectLog.append("write")
        }
    }

    /// The app saves one transaction and tells the engine.
    func save(_ operations: Transaction.Operation...) throws {
        try rig.save(operations)
        deliver(.storeSaved)
    }

    func insertNote(title: String, body: String? = nil) throws -> ModelID {
        let id = rig.store.makeModelID()
        var values: [String: PropertyValue] = ["title": .attribute(.string(title))]
        if let body { values["body"] = .attribute(.string(body)) }
        try save(.insert(id, entity: "Note", values: values))
        return id
    }

    /// Fires a timer the engine set, as if its time had come.
    func fire(_ timer: EngineTimer) {
        guard rig.timers[timer] != nil else { return }
        deliver(rig.fire(timer))
    }

    /// A kill and a launch: new memory over the same disk.
    func relaunch() {
        rig.kill()
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
