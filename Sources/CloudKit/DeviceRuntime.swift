import CloudSim
import Foundation
import Kernel
import Network
import SyncContract

/// One simulated device's app process as CloudKit code sees it: the executor its tasks run
/// on, the requests and sleeps the kernel will answer, the sync engines the app made, its
/// files, and the effects for the world, in the order they arose.
///
/// A new runtime starts with each launch; a kill drops it with every task still waiting in
/// it (a killed process runs nothing more). The app's objects that outlive it (a test holds
/// them) fail the run when they are used again.
public final class DeviceRuntime: @unchecked Sendable {
    // `@unchecked`: used only on the simulation's thread, one job at a time.
    let executor = DeviceExecutor()
    /// The device's conditions during the event being handled.
    var conditions: DeviceConditions
    /// The device's files (`AppContainer`).
    public let container: AppContainer
    var effects: [EngineEffect] = []
    /// The first runtime error; nothing more runs once it is set.
    public private(set) var failure: String?
    var engines: [CKSyncEngine] = []
    /// Manual fetches and sends the app asked for, started once the running jobs are done.
    var operations: [() -> Void] = []
    /// Delegate methods the engine waits for (`DelegateBridge`): done, and what goes on then.
    var deferred: [(box: () -> Bool, complete: () -> [EngineEffect])] = []
    /// Delegate callbacks running now: the engine cannot start an operation inside one.
    private var callbackDepth = 0
    private var requests: [(id: RequestID, continuation: UnsafeContinuation<CloudResponse,
        Never>)] = []
    private var sleepers: [(timer: EngineTimer, job: UnownedJob)] = []
    private var sleepCount = 0
    private var requestNumber: UInt64 = 2_000_000_000
    private var engineCount = 0
    /// Operation groups made on the device, numbering their IDs (`CKOperationGroup`).
    var operationGroupCount = 0
    /// Operations made on the device, numbering their IDs (`CKOperation.operationID`).
    var operationCount = 0
    /// The launch's seeded stream: record names (`CKRecord.ID(zoneID:)`), and the bytes its
    /// code asks the system for (`UUID()`, `Int.random`).
    private var names: Xoshiro256StarStar
    /// The app's handler of pushes (`RemoteNotifications.register`), for this launch.
    var remoteNotificationHandler: (@Sendable ([AnyHashable: Any]) async -> Void)?
    /// The observers the app's code added on `NotificationCenter.default`, for this launch.
    var observers: [DeviceObserver] = []
    /// The `NWPathMonitor`s the app's code started, for this launch.
    var pathMonitors: [NWPathMonitor] = []
    /// Whether the device's places stay in place between its runs (`AppEngine.holdsPlaces`).
    var holdsPlaces = false
    /// Whether the process still runs (false after a kill).
    public internal(set) var isRunning = true

    init(conditions: DeviceConditions, container: AppContainer, names: Xoshiro256StarStar) {
        self.conditions = conditions
        self.container = container
        self.names = names
        executor.onSleep = { [unowned self] job, delay in sleep(job, delay) }
    }

    /// The runtime whose code runs on the calling thread now.
    public static var current: DeviceRuntime? { ConcurrencyHooks.draining }

    public var device: String { conditions.device }
    public var account: String? { conditions.account }
    public var now: SimTime { conditions.now }
    /// The simulated time now as a date (time zero is 2023-11-14 22:13:20 UTC).
    public var date: Date { SimulatedDates.date(conditions.now) }

    // MARK: Running the app's code

    /// Runs `start` and every job it leads to, then the operations the app asked for, until
    /// nothing is left to run at this instant.
    func run(_ start: @escaping () -> Void = {}) {
        guard let reason = placing({ runInPlace(start) }) else { return }
        fail(reason)
    }

    /// Runs `body` with this device's folders and `UserDefaults` values in place; nil, or why
    /// they cannot be put in place (`body` does not run then). Nested, for the same device,
    /// it costs nothing: an engine puts them in place once for an event's several runs.
    private func placing(_ body: () -> Void) -> String? {
        let restore: String?
        switch StandardDirectories.enter(container) {
        case .success(let previous): restore = previous
        case .failure(let failure): return failure.reason
        }
        defer { StandardDirectories.leave(restoring: restore, hold: holdsPlaces) }
        DeviceDefaults.enter(container)
        defer { DeviceDefaults.leave(hold: holdsPlaces) }
        body()
        return nil
    }

    /// `body` with this device in place for all the runs it makes, when it can be put in
    /// place (otherwise each run fails with the reason, as alone).
    package func inPlace<Value>(_ body: () -> Value) -> Value {
        var value: Value?
        _ = placing { value = body() }
        guard let value else { return body() }
        return value
    }

    private func runInPlace(_ start: @escaping () -> Void) {
        var begin: (() -> Void)? = start
        while failure == nil {
            if executor.drain(for: self, after: begin ?? {}) { fail(DeviceExecutor.foreignMessage) }
            begin = nil
            collectEngineEffects()
            guard failure == nil, callbackDepth == 0 else { return }
            if let index = deferred.firstIndex(where: { $0.box() }) {
                let done = deferred.remove(at: index)
                emit(done.complete())
                continue
            }
            if !operations.isEmpty {
                let operation = operations.removeFirst()
                operation()
                collectEngineEffects()
                continue
            }
            let finished = engines.flatMap { $0.finishedWaiters() }
            guard !finished.isEmpty else { return }
            begin = { for resume in finished { resume() } }
        }
    }

    /// Starts `body` as a task of this device and runs it as far as it goes now; the result
    /// box is filled when (and if) it finishes.
    func start<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> ResultBox<Value> {
        let box = ResultBox<Value>()
        let executor = self.executor
        run { _ = Task(executorPreference: executor) { box.value = await body() } }
        return box
    }

    /// `start` for a delegate callback: the engine waits in it, so no operation starts.
    func startCallback<Value: Sendable>(_ body: @escaping @Sendable () async -> Value)
        -> ResultBox<Value> {
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        return start(body)
    }

    /// Ends the run with a runtime error (the first one only).
    public func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        effects.append(.runtimeError("\(message)"))
    }

    /// Appends effects made by a call that may itself run the app's code (a delegate
    /// callback appends its own first): the call is made before `effects` is touched.
    func emit(_ made: [EngineEffect]) {
        effects.append(contentsOf: made)
    }

    func takeEffects() -> [EngineEffect] {
        collectEngineEffects()
        let taken = effects
        effects = []
        return taken
    }

    private func collectEngineEffects() {
        for engine in engines { emit(engine.sim.takeEffects()) }
    }

    // MARK: The kernel's answers

    /// Sends a request and suspends the calling task until its answer arrives.
    func request(_ request: CloudRequest) async -> CloudResponse {
        await withUnsafeContinuation { continuation in
            requestNumber += 1
            let id = RequestID(requestNumber)
            requests.append((id, continuation))
            effects.append(.send(id, request))
        }
    }

    /// Hands an answer to the task waiting for it; false when no task waits for this request.
    func answer(_ id: RequestID, _ response: CloudResponse) -> Bool {
        guard let index = requests.firstIndex(where: { $0.id == id }) else { return false }
        let waiting = requests.remove(at: index)
        run { waiting.continuation.resume(returning: response) }
        return true
    }

    private func sleep(_ job: UnownedJob, _ delay: Duration) {
        sleepCount += 1
        let timer = EngineTimer("app.sleep.\(sleepCount)")
        sleepers.append((timer, job))
        effects.append(.setTimer(timer, after: Self.simulated(delay)))
    }

    /// A duration the code asked for, to the millisecond (what is left of a deadline read off
    /// the machine's clock differs from the asked duration by microseconds).
    static func simulated(_ duration: Duration) -> SimTime {
        let (seconds, attoseconds) = duration.components
        let milliseconds = (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded()
        return SimTime(microseconds: Int64(max(0, milliseconds)) * 1000)
    }

    /// Wakes a sleeping task whose timer fired; false when the timer is not a sleep's.
    func wake(_ timer: EngineTimer) -> Bool {
        guard let index = sleepers.firstIndex(where: { $0.timer == timer }) else { return false }
        let sleeper = sleepers.remove(at: index)
        run { [executor] in executor.append(sleeper.job) }
        return true
    }

    /// Whether nothing waits for the network or a timer.
    var isIdle: Bool {
        requests.isEmpty && operations.isEmpty && deferred.isEmpty
            && engines.allSatisfy { !$0.sim.isBusy }
    }

    // MARK: What the app's code asks of the device

    func register(_ engine: CKSyncEngine) -> Int {
        engines.append(engine)
        engineCount += 1
        return engineCount
    }

    /// A record name of the device's seeded draw (a UUID's shape), for `CKRecord.ID(zoneID:)`.
    func makeRecordName() -> String {
        EngineContext<AppSyncData>.randomRecordName(drawingFrom: &names)
    }

    /// Fills `buffer` with the device's seeded bytes: what its code reads as the system's
    /// random bytes (DeviceSystemCalls.c).
    func fillRandom(_ buffer: UnsafeMutableRawPointer, count: Int) {
        var offset = 0
        while offset < count {
            var word = names.next()
            let size = min(8, count - offset)
            withUnsafeBytes(of: &word) { bytes in
                (buffer + offset).copyMemory(from: bytes.baseAddress!, byteCount: size)
            }
            offset += size
        }
    }
}

/// Where a task's result waits for the thread that drains it.
public final class ResultBox<Value>: @unchecked Sendable {
    // `@unchecked`: only the simulation's thread touches it, one job at a time.
    public internal(set) var value: Value?
}
