import Foundation

/// `OperationQueue.addOperation(_:)` for a CloudKit operation added from a device's code
/// (its static type a CloudKit operation class, where these overloads are the more specific):
/// it runs on that device in simulated time, as `start()` runs it, after its dependencies.
/// A queue that runs one operation at a time (`maxConcurrentOperationCount` 1) starts each
/// after the one added before it finished, as Foundation's would. Foundation's own queue would
/// start it on one of its threads, which no seed can order. Outside a device's code, the
/// calls are Foundation's.
extension OperationQueue {
    public func addOperation(_ operation: CKOperation) {
        guard let runtime = DeviceRuntime.current else {
            return addOperation(operation as Operation)
        }
        guard !isSuspended else {
            return runtime.fail("a CloudKit operation was added to a suspended OperationQueue, "
                + "which would hold it until resumed on one of Foundation's threads; add it "
                + "to a running queue, or to a database with CKDatabase.add(_:)")
        }
        if maxConcurrentOperationCount == 1 {
            operation.predecessor = Self.lastAdded.value(for: self)?.operation
            Self.lastAdded.register(self, LastAdded(operation: operation))
        }
        operation.start()
    }

    public func addOperations(_ operations: [CKOperation], waitUntilFinished wait: Bool) {
        for operation in operations { addOperation(operation) }
        guard wait, let runtime = DeviceRuntime.current else { return }
        runtime.fail("addOperations(_:waitUntilFinished: true) would block the thread the "
            + "simulation runs on; await the operations' result blocks instead")
    }

    /// The CloudKit operation a serial queue was given last, which the next one waits for.
    private struct LastAdded {
        weak var operation: CKOperation?
    }

    private static let lastAdded = InstanceRegistry<OperationQueue, LastAdded>()
}
