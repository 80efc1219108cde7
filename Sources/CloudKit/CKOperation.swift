import Foundation

/// Apple's `CKOperation`: the base of the operation classes an app configures with blocks and
/// hands to `CKDatabase.add(_:)` (the sharing operations to `CKContainer.add(_:)`), or starts
/// itself with `start()`. It is a Foundation `Operation`, as Apple's is, but it runs as a task
/// of the device that adds or starts it, in simulated time, and calls its blocks there, in
/// Apple's order: per-item blocks first, the result block last, then `completionBlock`. It
/// waits for its dependencies that are CloudKit operations (`CKOperation+Dependencies.swift`).
open class CKOperation: Foundation.Operation, @unchecked Sendable {
    // `@unchecked`: configured before `add`, then used by its device's tasks only.
    /// Apple's identifier type of an operation.
    public typealias ID = String

    /// Apple's per-operation settings; accepted and kept, they change nothing here: the
    /// simulation models no QoS, no cellular access, no long-lived operations, and no
    /// timeouts (a request waits for its answer however long the simulated latency is).
    public final class Configuration: NSObject, @unchecked Sendable {
        public var container: CKContainer?
        public var qualityOfService: QualityOfService = .default
        public var allowsCellularAccess = true
        public var isLongLived = false
        public var timeoutIntervalForRequest: TimeInterval = 60
        public var timeoutIntervalForResource: TimeInterval = 7 * 24 * 3600

        public override init() {}
    }

    /// Where an operation is in its life; `waiting` is for its dependencies.
    enum Phase { case ready, waiting, executing, finished }

    public var configuration: Configuration! = Configuration()
    /// Apple's group of the operation ([CKOperationGroup]); kept, changes nothing here.
    public var group: CKOperationGroup?
    /// Unique on its device: the device's name and a count of the operations made there (a
    /// random ID would change from run to run).
    public let operationID: ID
    /// Apple calls it when the system saved a long-lived operation; none is saved here.
    public var longLivedOperationWasPersistedBlock: (() -> Void)?
    private(set) var phase = Phase.ready
    private var cancelled = false
    private var completion: (@Sendable () -> Void)?
    /// The device whose code made the operation: a start from another thread is told there.
    private weak var origin: DeviceRuntime?
    /// Operations waiting for this one to finish, in the order they began to wait.
    var dependents: [CKOperation] = []
    /// The wait for a dependency, resumed when one finishes or the operation is cancelled.
    var wake: UnsafeContinuation<Void, Never>?
    /// The operation added before this one to the same serial `OperationQueue`: it waits for
    /// it as for a dependency, without being listed among its dependencies.
    weak var predecessor: CKOperation?

    public override init() {
        let runtime = DeviceRuntime.current
        origin = runtime
        if let runtime {
            runtime.operationCount += 1
            operationID = "\(runtime.device)-operation-\(runtime.operationCount)"
        } else {
            operationID = "operation"
        }
    }

    open override var isAsynchronous: Bool { true }
    open override var isExecuting: Bool { phase == .executing }
    open override var isFinished: Bool { phase == .finished }
    open override var isCancelled: Bool { cancelled }
    /// Ready once every dependency finished, or once cancelled (as Foundation's operations).
    open override var isReady: Bool {
        cancelled || dependencies.allSatisfy { $0.isFinished }
    }

    /// Called after the result block, on the operation's device (Foundation would call it
    /// on one of its own threads).
    open override var completionBlock: (@Sendable () -> Void)? {
        get { completion }
        set { completion = newValue }
    }

    /// Cancels the operation: one not yet started, or waiting for a dependency, ends with
    /// `operationCancelled` without a request; one running ends with it at its next step.
    open override func cancel() {
        guard phase != .finished else { return }
        cancelled = true
        super.cancel()
        resumeWait()
    }

    /// Starts the operation on the calling device, as `add(_:)` does: on its `database`, or
    /// the private database of its configuration's container (else the default container);
    /// a sharing operation in that container. It runs once the calling code yields.
    open override func start() {
        guard let runtime = DeviceRuntime.current else { return startedElsewhere() }
        guard phase == .ready else {
            if phase != .finished { runtime.fail(Self.startedTwice(self)) }
            return
        }
        let container = configuration.container ?? CKContainer.default()
        configuration.container = container
        if runsInContainer {
            Task { await run(in: container) }
            return
        }
        let database = (self as? CKDatabaseOperation)?.database ?? container.privateCloudDatabase
        (self as? CKDatabaseOperation)?.database = database
        Task { await run(on: database) }
    }

    /// Its work is in `start()`'s task: nothing runs synchronously here.
    open override func main() {}

    /// Waiting would block the only thread the simulation runs on, so the run stops instead.
    open override func waitUntilFinished() {
        DeviceRuntime.current?.fail("\(type(of: self)).waitUntilFinished() would block the "
            + "thread the simulation runs on; await the operation's result block instead (or "
            + "use the async calls of CKDatabase)")
    }

    /// Runs the operation's requests and blocks; each subclass says what it does.
    func perform(on database: CKDatabase) async {}

    /// A container operation's requests and blocks (the sharing operations, which name no
    /// database); each such subclass says what it does.
    func perform(in container: CKContainer) async {}

    /// Whether `CKContainer.add(_:)` runs it in the container rather than on a database.
    var runsInContainer: Bool { false }

    func run(on database: CKDatabase) async {
        await running { await perform(on: database) }
    }

    func run(in container: CKContainer) async {
        await running { await perform(in: container) }
    }

    private func running(_ body: () async -> Void) async {
        guard phase == .ready else {
            DeviceRuntime.current?.fail(Self.startedTwice(self))
            return
        }
        phase = .waiting
        guard await dependenciesFinished() else { return }
        phase = .executing
        await body()
        phase = .finished
        completion?()
        let waiting = dependents
        dependents = []
        for operation in waiting { operation.resumeWait() }
    }

    /// A start from a thread the simulation does not drive (an `OperationQueue`'s): nothing
    /// runs, and the device that made the operation stops its run naming the cause.
    private func startedElsewhere() {
        origin?.executor.noteForeign()
    }

    static func startedTwice(_ operation: CKOperation) -> String {
        "\(type(of: operation)) was added or started a second time; an operation runs once "
            + "(make a new one to run it again)"
    }
}

/// Apple's `CKDatabaseOperation`: an operation on one database, the one it is added to.
open class CKDatabaseOperation: CKOperation, @unchecked Sendable {
    public var database: CKDatabase?
}

extension CKDatabase {
    /// Runs an operation on this database (Apple's `add(_:)`): it starts as a task of the
    /// calling device once the code running now yields, and its blocks run on that device.
    public func add(_ operation: CKDatabaseOperation) {
        _ = try? Self.runtime("add(_:)")
        operation.database = self
        Task { await operation.run(on: self) }
    }
}
