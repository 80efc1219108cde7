import CloudSim
import Kernel
import LocalStore
import SyncContract

/// A one-device rig for any engine of the contract, without the harness: `deliver` hands the
/// engine exactly one event and returns its effects (event in, effects out).
///
/// Of the effects, `deliver` carries out what the device does at once, as the world does:
/// writes go to the disk (the store and the sync data), timers are recorded, waiters noted.
/// Requests sent and probe points passed wait in `pending`, in the order the effects gave
/// them, until the test answers or resumes them (`answer`, `resumeFirstProbe`, `next`) and
/// delivers the event it gets back, or lets `settle` deliver them all. A request is answered by a real
/// `CloudService` when it is answered, at `now`, with no latency.
public final class EngineRig<Engine: SyncEngine> {
    /// Something the effects so far call for, not delivered yet.
    public enum Pending: Equatable {
        /// A request sent and not answered.
        case request(RequestID, CloudRequest)
        /// A probe point passed and not resumed.
        case probe(String, ProbeTicket)
    }

    public let cloud: CloudService
    public let schema: Schema
    /// The engine's memory; `kill` replaces it.
    public private(set) var engine: Engine
    private let makeEngine: () -> Engine
    public var store: Store
    public var syncData = SyncDataBox()
    public var names = Xoshiro256StarStar(seed: 7)
    public var now = SimTime.seconds(1)
    public var device = "phone"
    public var account: String?
    public var accountStatus: AccountStatus
    public var isOnline = true
    public var isDiskFull = false
    /// What the effects so far call for, in their order.
    public var pending: [Pending] = []
    /// Every request sent, in order.
    public private(set) var sent: [(id: RequestID, request: CloudRequest)] = []
    /// The timers set and not cancelled or fired, with when each is due.
    public var timers: [EngineTimer: SimTime] = [:]
    /// Waiters the engine completed or failed, in order.
    public private(set) var endedWaiters: [WaiterID] = []

    /// A rig for the engine `make` builds, over an empty store of `schema`, signed into
    /// `account` ("alice"); the cloud knows `accounts` and has `appZoneName` as its app zone.
    public init(
        schema: Schema,
        account: String? = "alice",
        accounts: [String] = ["alice", "bob"],
        appZoneName: String,
        cloud: CloudService? = nil,
        _ make: @escaping () -> Engine
    ) {
        self.schema = schema
        self.cloud = cloud ?? CloudService(configuration: CloudConfiguration(
            accounts: accounts, appZoneName: appZoneName))
        self.account = account
        accountStatus = account == nil ? .noAccount : .available
        makeEngine = make
        engine = make()
        store = Store(schema: schema)
    }

    /// The cloud's view of this device.
    public var client: CloudClient { CloudClient(device: device, account: account) }

    /// The engine's sync data as the disk holds it.
    public var data: Engine.SyncData { syncData.contents(as: Engine.SyncData.self) ?? .init() }

    /// The device's state for the next event.
    public var conditions: DeviceConditions {
        DeviceConditions(now: now, device: device, account: account,
                         accountStatus: accountStatus, isOnline: isOnline,
                         isDiskFull: isDiskFull)
    }

    // MARK: One event

    /// Hands the engine exactly one event over copies of the disk; carries out its writes,
    /// records its timers and waiters, keeps its requests and probe points pending; returns
    /// its effects in order. Nothing else is delivered.
    @discardableResult
    public func deliver(_ event: EngineEvent) -> [EngineEffect] {
        let effects = engine.handle(event, conditions: conditions, store: store,
                                    syncData: syncData, names: &names)
        for effect in effects { carryOut(effect) }
        return effects
    }

    private func carryOut(_ effect: EngineEffect) {
        switch effect {
        case .send(let id, let request):
            sent.append((id, request))
            pending.append(.request(id, request))
        case .setTimer(let timer, let delay):
            timers[timer] = now + delay
        case .cancelTimer(let timer):
            timers[timer] = nil
        case .probe(let name, let ticket):
            pending.append(.probe(name, ticket))
        case .trace:
            break
        case .completed(let waiter), .failed(let waiter, _):
            endedWaiters.append(waiter)
        case .write(let write):
            if let written = write.store { store = written }
            if let written = write.syncData { syncData = written }
        }
    }

    // MARK: Answers, resumes and timers (returned, not delivered)

    /// The cloud's answer now to the pending request `id` (a network failure when offline),
    /// as the `.response` event to deliver next; the request is no longer pending.
    public func answer(_ id: RequestID) -> EngineEvent {
        guard let index = pending.firstIndex(where: {
            if case .request(id, _) = $0 { return true }
            return false
        }), case .request(_, let request) = pending.remove(at: index)
        else { preconditionFailure("request \(id) is not pending") }
        return .response(id, response(to: request))
    }

    /// The answer to the first pending request, or nil when none is pending.
    public func answerFirstRequest() -> EngineEvent? {
        for case .request(let id, _) in pending { return answer(id) }
        return nil
    }

    /// Drops the pending request `id` unanswered (its answer is lost, or the test makes its own).
    public func dropRequest(_ id: RequestID) {
        pending.removeAll {
            if case .request(id, _) = $0 { return true }
            return false
        }
    }

    /// The `.resume` of the first pending probe point, or nil when none is pending.
    public func resumeFirstProbe() -> EngineEvent? {
        guard let index = pending.firstIndex(where: {
            if case .probe = $0 { return true }
            return false
        }), case .probe(_, let ticket) = pending.remove(at: index) else { return nil }
        return .resume(ticket)
    }

    /// The event the first pending item calls for (answer or resume), taken off `pending`.
    public func next() -> EngineEvent? {
        guard !pending.isEmpty else { return nil }
        switch pending.removeFirst() {
        case .request(let id, let request): return .response(id, response(to: request))
        case .probe(_, let ticket): return .resume(ticket)
        }
    }

    /// The `.timer` event of `timer`, with the clock moved to when it is due; the timer is
    /// no longer set.
    public func fire(_ timer: EngineTimer) -> EngineEvent {
        guard let due = timers.removeValue(forKey: timer) else {
            preconditionFailure("timer \(timer) is not set")
        }
        now = max(now, due)
        return .timer(timer)
    }

    private func response(to request: CloudRequest) -> CloudResponse {
        guard isOnline else {
            return .failure(CloudError(.networkUnavailable, message: "offline"))
        }
        return cloud.handle(request, from: client, now: now).response
    }

    // MARK: Bringing the engine to a state

    /// Delivers the pending items, and those they call for, in order until none is left.
    public func settle() {
        var steps = 0
        while let event = next() {
            steps += 1
            precondition(steps < 10_000, "the engine does not come to rest")
            deliver(event)
        }
    }

    /// Delivers pending items until one passes `probe`; what it calls for stays pending.
    public func run(untilProbe probe: String) {
        var steps = 0
        while let event = next() {
            steps += 1
            precondition(steps < 10_000, "the engine does not come to rest")
            if deliver(event).contains(where: { $0.probePoint == probe }) { return }
        }
        preconditionFailure("\(probe) was never passed")
    }

    /// Settles, then fires the timer due first (ties by name) and settles again, until no
    /// timer is set: everything the engine has scheduled happens, the clock following.
    public func settleWithTimers() {
        settle()
        var fired = 0
        while let timer = timers.min(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key {
            fired += 1
            precondition(fired < 1_000, "the engine keeps setting timers")
            deliver(fire(timer))
            settle()
        }
    }

    /// A launch, run to its end.
    public func launch() {
        deliver(.launch(waiter: nil))
        settle()
    }

    /// A kill: new memory over the same disk; timers and pending items are gone.
    public func kill() {
        engine = makeEngine()
        timers = [:]
        pending = []
    }

    /// A kill and a launch, run to its end.
    public func relaunch() {
        kill()
        launch()
    }

    /// The app saves one transaction and does not tell the engine yet.
    public func save(_ operations: [Transaction.Operation], author: String = "app") throws {
        var transaction = Transaction()
        for operation in operations { transaction.append(operation) }
        try store.save(transaction, author: author)
    }

    /// The app inserts one model of `entity` with `values` and does not tell the engine yet.
    @discardableResult
    public func insert(
        _ entity: String, _ values: [String: AttributeValue], author: String = "app"
    ) throws -> ModelID {
        let id = store.makeModelID()
        try save([.insert(id, entity: entity, values: values.mapValues { .attribute($0) })],
                 author: author)
        return id
    }

    /// Another device of `account` saves `record`'s `changedKeys` into the cloud (it must
    /// succeed).
    public func cloudSaves(
        _ record: CloudRecord, changedKeys: [String], from other: String = "tablet"
    ) {
        let outcome = cloud.handle(
            .modifyRecords(scope: .privateDatabase, zone: record.zone,
                           saves: [RecordSave(record: record, changedKeys: changedKeys)],
                           deletes: [], policy: .allKeys, atomic: false),
            from: CloudClient(device: other, account: account), now: now)
        guard case .recordsModified(let results) = outcome.response, case .saved? = results.first
        else { preconditionFailure("the \(other)'s save failed: \(outcome.response)") }
    }

    /// The effects in short lines, for exact comparison (`EffectLines.describe`).
    public func describe(_ effects: [EngineEffect]) -> [String] { EffectLines.describe(effects) }
}
