import Foundation

/// An operation's wait for its dependencies (`addDependency(_:)`, Foundation's), as an
/// operation queue waits: it starts once each has finished, or at once when cancelled. A
/// dependency that is a CloudKit operation finishes in simulated time and wakes the
/// operations waiting for it, in the order they began to wait. Any other `Operation` would
/// finish on Foundation's threads, which no seed orders, so one not finished yet stops the run.
extension CKOperation {
    /// Whether the operation may go on: false when the run stopped at a dependency.
    func dependenciesFinished() async -> Bool {
        while !isCancelled, let pending = predecessor.flatMap({ $0.isFinished ? nil : $0 })
            ?? dependencies.first(where: { !$0.isFinished }) {
            guard let operation = pending as? CKOperation else {
                DeviceRuntime.current?.fail(Self.foreignDependency(self, pending))
                return false
            }
            if !operation.dependents.contains(where: { $0 === self }) {
                operation.dependents.append(self)
            }
            await withUnsafeContinuation { wake = $0 }
        }
        return true
    }

    /// Lets a wait for a dependency look again (it finished, or this operation was cancelled).
    func resumeWait() {
        guard let wake else { return }
        self.wake = nil
        wake.resume()
    }

    static func foreignDependency(_ operation: CKOperation, _ dependency: Operation) -> String {
        "\(type(of: operation)) depends on a \(type(of: dependency)) that has not finished: "
            + "only CloudKit operations finish in simulated time (another Operation would run "
            + "on Foundation's threads); finish it before the CloudKit operation starts, or "
            + "do its work in a CloudKit operation's blocks"
    }
}
