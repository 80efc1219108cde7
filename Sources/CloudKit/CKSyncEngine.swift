import CKSyncEngineSim
import CloudSim
import Kernel
import SyncContract

/// Apple's `CKSyncEngine`, made by the app in its own code, on the simulated device it runs
/// on: the simulated engine of docs/CKSYNCENGINE.md behind Apple's names, with the app's
/// `async` delegate run on the device's executor.
///
/// `fetchChanges()` and `sendChanges()` return when the engine has no operation left, in
/// simulated time, and throw as Apple's do: a fetch that failed throws its error; a send in
/// which a record or zone change failed throws `partialFailure` with the items' errors. A send
/// ends after a batch with failed items: changes the delegate adds back wait for the next send
/// (Apple's sample tests expect one pending change after a lost conflict). A send or fetch
/// that fails as a whole (offline: `networkUnavailable`) throws that error. With
/// `automaticallySync`, the scheduler holds its sends and fetches while the device is offline
/// and runs them when the network returns.
public final class CKSyncEngine: @unchecked Sendable, CustomStringConvertible {
    // `@unchecked`: used on its device's executor only, which `check` enforces.
    public let database: CKDatabase
    let runtime: DeviceRuntime
    var sim: SimEngine!
    private var bridge: DelegateBridge!
    private(set) var number = 0
    /// Tasks in `fetchChanges()`/`sendChanges()`, resumed when no operation is left.
    private var waiters: [Waiter] = []
    public private(set) var state: State!

    public init(_ configuration: Configuration) {
        guard let runtime = DeviceRuntime.current else {
            preconditionFailure("SyncLab: CKSyncEngine was made outside a simulated device; "
                + "make it in code the device runs (device.run { … } in a test, "
                + "or the app's launch)")
        }
        self.runtime = runtime
        database = configuration.database
        if database.databaseScope == .public {
            // Apple's raises an exception here: the engine syncs a private or shared database.
            runtime.fail("CKSyncEngine cannot be used with the public database; sync it with "
                + "CKQueryOperation, CKFetchRecordsOperation and CKModifyRecordsOperation")
        }
        number = runtime.register(self)
        state = State(engine: self)
        bridge = DelegateBridge(engine: self, delegate: configuration.delegate)
        sim = SimEngine(.init(
            database: configuration.database.databaseScope.simulated,
                stateSerialization: configuration.stateSerialization,
            delegate: bridge, automaticallySync: configuration.automaticallySync,
            timerPrefix: "cksync.\(number)", firstRequestNumber: UInt64(number) * 100_000_000,
            endsSendAfterFailedItems: true,
            isNetworkAvailable: { [unowned runtime] in runtime.conditions.isOnline }))
    }

    var account: String { runtime.account ?? "" }

    public var description: String { "<CKSyncEngine \(number) on \(runtime.device)>" }

    /// Fetches the database's and its zones' changes now.
    public func fetchChanges(_ options: FetchChangesOptions = FetchChangesOptions()) async throws {
        check("fetchChanges()")
        let simOptions = options.simulated(account: account)
        try await operate(isSend: false) { $0.fetchChanges(simOptions) }
    }

    /// Sends the pending changes now.
    public func sendChanges(_ options: SendChangesOptions = SendChangesOptions()) async throws {
        check("sendChanges()")
        let simOptions = options.simulated(account: account)
        try await operate(isSend: true) { $0.sendChanges(simOptions) }
    }

    /// Starts an operation once the running jobs are done and waits until none is left.
    private func operate(isSend: Bool,
        _ start: @escaping (SimEngine) -> [EngineEffect]) async throws {
        let failure = await withUnsafeContinuation { continuation in
            runtime.operations.append { [self] in
                runtime.emit(start(sim))
                waiters.append(Waiter(isSend: isSend, continuation: continuation))
            }
        }
        if let failure { throw failure }
    }

    /// Waits ended by `cancelOperations()`, resumed when the device's jobs run next.
    private var cancelled: [() -> Void] = []

    /// Cancels the operations waiting to run (Apple: "any in-progress or pending sync
    /// operations", processed asynchronously, so one in progress may still complete): once the
    /// operations the app asked for before it have started, the queued ones are dropped and
    /// every wait of `fetchChanges()`/`sendChanges()` ends with `operationCancelled`.
    public func cancelOperations() async {
        check("cancelOperations()")
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            runtime.operations.append { [self] in
                runtime.emit(sim.cancelPendingOperations())
                let waiting = waiters
                waiters = []
                cancelled += waiting.map { waiter in
                    { waiter.continuation.resume(returning: CKError(.operationCancelled)) }
                }
                cancelled.append { continuation.resume() }
            }
        }
    }

    /// The waits that can end now (no operation left), as closures that resume them.
    func finishedWaiters() -> [() -> Void] {
        let ready = cancelled
        cancelled = []
        guard !waiters.isEmpty, !sim.isBusy else { return ready }
        let finished = waiters
        waiters = []
        let fetchFailure = sim.lastFetchFailure.map { CKError($0, account: runtime.account) }
        let sendFailure = sim.lastSendFailure.map { CKError($0, account: runtime.account) }
        return ready + finished.map { waiter in
            let error: CKError? = waiter.isSend ? waiter.failure() ?? sendFailure : fetchFailure
            return { waiter.continuation.resume(returning: error) }
        }
    }

    /// Notes failed items of a send for the tasks waiting in `sendChanges()`.
    func noteSent(_ event: Event) {
        for index in waiters.indices where waiters[index].isSend {
            switch event {
            case .sentRecordZoneChanges(let sent):
                for failed in sent.failedRecordSaves {
                    waiters[index].failures[failed.record.recordID] = failed.error
                }
                for (id, error) in sent.failedRecordDeletes { // tidy: ordered (into a dictionary)
                    waiters[index].failures[id] = error
                }
            case .sentDatabaseChanges(let sent):
                for failed in sent.failedZoneSaves {
                    waiters[index].failures[failed.zone.zoneID] = failed.error
                }
                for (id, error) in sent.failedZoneDeletes { // tidy: ordered (into a dictionary)
                    waiters[index].failures[id] = error
                }
            default:
                break
            }
        }
    }

    /// Fails the run when the engine is used off its device's executor or after a kill.
    func check(_ call: String) {
        if !runtime.isRunning {
            runtime.fail("CKSyncEngine.\(call) was called on an engine of a killed app; "
                + "make a new one after the launch")
        } else if DeviceRuntime.current !== runtime {
            runtime.fail("CKSyncEngine.\(call) was called outside the device's code "
                + "(another device's, or a thread)")
        }
    }

    struct Waiter {
        var isSend: Bool
        var continuation: UnsafeContinuation<CKError?, Never>
        var failures: [AnyHashable: CKError] = [:]

        func failure() -> CKError? {
            failures.isEmpty ? nil : CKError(partialFailure: failures.mapValues { $0 as any Error })
        }
    }
}
