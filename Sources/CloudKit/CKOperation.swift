import Foundation

/// Apple's `CKOperation`: the base of the operation classes an app configures with blocks and
/// hands to `CKDatabase.add(_:)` (the sharing operations to `CKContainer.add(_:)`). The
/// operation runs as a task of the device that adds it, in simulated time, and calls its
/// blocks there, in Apple's order: per-item blocks first, the result block last. It is not a
/// Foundation `Operation` (whose queues would run it on other threads); the properties apps
/// set on one are here.
open class CKOperation: NSObject, @unchecked Sendable {
    // `@unchecked`: configured before `add`, then used by its device's tasks only.
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

    public var configuration: Configuration! = Configuration()
    /// Apple's group of the operation ([CKOperationGroup]); kept, changes nothing here.
    public var group: CKOperationGroup?
    public var qualityOfService: QualityOfService = .default
    public var name: String?
    /// Called after the result block, as Foundation's operations do.
    public var completionBlock: (() -> Void)?
    public private(set) var isCancelled = false
    public private(set) var isFinished = false
    public private(set) var isExecuting = false

    public override init() {}

    /// Cancels the operation: one not yet started ends with `operationCancelled` without a
    /// request; one running ends with it at its next step.
    open func cancel() { isCancelled = true }

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
        isExecuting = true
        await body()
        isExecuting = false
        isFinished = true
        completionBlock?()
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
