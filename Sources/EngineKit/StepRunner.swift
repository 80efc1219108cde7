/// One operation at a time from a first-in, first-out queue: the engine queues operations,
/// starts the next one when none runs, and drops the queued ones when it is disabled.
///
/// `Queued` is what waits (an operation, or only its kind); `Running` is what runs (the same
/// operation, or a request built from the kind when it starts). The runner decides nothing
/// else: what starting or ending an operation does is the engine's.
public struct StepRunner<Queued, Running> {
    @usableFromInline var waiting: [Queued] = []
    @usableFromInline var current: Running?

    /// What waits, first to run first.
    @inlinable
    public var queued: [Queued] { waiting }

    /// The operation now running, if any.
    @inlinable
    public var running: Running? { current }

    public init() {}

    /// Nothing runs and nothing waits.
    @inlinable
    public var isIdle: Bool { current == nil && waiting.isEmpty }

    /// Something runs or waits (an engine's `syncing` state).
    @inlinable
    public var isBusy: Bool { !isIdle }

    /// How many operations wait.
    @inlinable
    public var queuedCount: Int { waiting.count }

    /// Queues an operation last.
    @inlinable
    public mutating func enqueue(_ operation: Queued) {
        waiting.append(operation)
    }

    /// Queues an operation first, ahead of everything waiting.
    @inlinable
    public mutating func enqueueFirst(_ operation: Queued) {
        waiting.insert(operation, at: 0)
    }

    /// The next operation to start, taken off the queue, when none runs and one waits; the
    /// caller starts it with `start(_:)`.
    @inlinable
    public mutating func takeNext() -> Queued? {
        guard current == nil, !waiting.isEmpty else { return nil }
        return waiting.removeFirst()
    }

    /// The operation taken by `takeNext()` (or built from it) now runs.
    @inlinable
    public mutating func start(_ operation: Running) {
        precondition(current == nil, "StepRunner: an operation started while another runs")
        current = operation
    }

    /// The running operation ended.
    @inlinable
    public mutating func finish() {
        current = nil
    }

    /// Drops every queued operation (the running one goes on); returns them, first first.
    @inlinable @discardableResult
    public mutating func dropQueued() -> [Queued] {
        let dropped = waiting
        waiting = []
        return dropped
    }
}

extension StepRunner where Queued: Equatable {
    /// Whether an operation equal to this one waits.
    @inlinable
    public func isQueued(_ operation: Queued) -> Bool { waiting.contains(operation) }

    /// Queues an operation last unless an equal one already waits; returns whether it did.
    @inlinable @discardableResult
    public mutating func enqueueUnlessQueued(_ operation: Queued) -> Bool {
        guard !waiting.contains(operation) else { return false }
        waiting.append(operation)
        return true
    }

    /// Puts these operations first, in this order, removing any equal ones that wait.
    @inlinable
    public mutating func moveToFront(_ operations: [Queued]) {
        waiting.removeAll { operations.contains($0) }
        waiting.insert(contentsOf: operations, at: 0)
    }
}

extension StepRunner where Queued == Running {
    /// Whether the running operation or a queued one satisfies the predicate.
    @inlinable
    public func containsOperation(where predicate: (Queued) -> Bool) -> Bool {
        if let current, predicate(current) { return true }
        return waiting.contains(where: predicate)
    }
}

extension StepRunner: Sendable where Queued: Sendable, Running: Sendable {}
