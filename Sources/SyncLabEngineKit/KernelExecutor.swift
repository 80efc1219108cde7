#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The executor user engines' `async` code runs on: the simulation drives it.
///
/// A `TaskExecutor` (SE-0417) whose `enqueue` only appends the job to a queue; nothing runs
/// until the host engine calls `run(_:)` from the simulation's thread, which starts the body as
/// a task preferring this executor and runs the queued jobs one at a time, in the order they
/// were enqueued, with `runSynchronously(on:)`, until the queue is empty. Child tasks (`async
/// let`, task groups) and default actors follow a task's executor preference, so they run
/// here too; the order of jobs is then fixed by the code alone, as on NIO's
/// `EmbeddedEventLoop`.
///
/// What would make a run depend on the machine is refused, with a message, never a hang:
/// a job enqueued from another thread (the body awaited something that resumed elsewhere: an
/// unstructured `Task {}`, `Task.sleep`, the main actor, a continuation resumed by another
/// thread), or a body that ended the drain suspended on something the kernel does not own.
/// After a refusal the executor runs nothing more.
public final class KernelExecutor: TaskExecutor, @unchecked Sendable {
    // `@unchecked`: every mutable field is behind the mutex.
    private struct Shared {
        var jobs: [UnownedJob] = []
        /// The thread inside `run(_:)`, nil outside it.
        var owner: pthread_t?
        var escape: String?
    }

    private let shared = Mutex(Shared())
    /// Continuations the kernel holds and will resume at a later simulated time (a user
    /// task waiting for an operation or a simulated sleep): a drain that ends with the body
    /// suspended on one of them is legitimate.
    private let parkedCount = Atomic<Int>(0)
    /// Jobs run so far (tests read it).
    public private(set) var jobsRun = 0

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let current = pthread_self()
        shared.withLock { state in
            guard state.escape == nil else { return }
            if let owner = state.owner, pthread_equal(owner, current) != 0 {
                state.jobs.append(job)
            } else {
                state.escape = "a job of the engine's async code came back from another thread: it awaited "
                    + "something the simulation does not drive (an unstructured Task {}, Task.sleep, the "
                    + "main actor, or a continuation resumed elsewhere); use structured concurrency, "
                    + "actors, and the sync engine's own async calls"
            }
        }
    }

    /// Why the executor stopped, if it did.
    public var escape: String? { shared.withLock { $0.escape } }

    /// Whether the calling thread is inside `run(_:)`: user code runs on the kernel now.
    public var isCurrent: Bool {
        let current = pthread_self()
        return shared.withLock { state in state.owner.map { pthread_equal($0, current) != 0 } ?? false }
    }

    /// The outcome of one `run(_:)`.
    public enum Outcome<Value> {
        /// The body returned.
        case finished(Value)
        /// The body is suspended on a continuation the kernel holds; it goes on in a later run.
        case suspended
        /// The body (or a job before it) left the kernel; the message says how.
        case escaped(String)
    }

    /// Starts `body` as a task on this executor and runs every job it (and any task waiting
    /// here) enqueues, on the calling thread, until none is left.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Outcome<Value> {
        let result = ResultBox<Value>()
        enter()
        if escape == nil {
            _ = Task(executorPreference: self) { result.value = await body() }
        }
        drain()
        if let escape { return .escaped(escape) }
        if let value = result.value { return .finished(value) }
        if parkedCount.load(ordering: .sequentiallyConsistent) > 0 { return .suspended }
        let message = "the engine's async code is suspended on something that never resumes on the "
            + "simulation's executor (the queue is empty, no simulated operation or sleep holds it)"
        shared.withLock { $0.escape = message }
        return .escaped(message)
    }

    /// Runs the jobs already queued (a continuation the kernel resumed), on the calling thread.
    public func runQueued() -> String? {
        enter()
        drain()
        return escape
    }

    /// Resumes a continuation the kernel held (`park`), then runs what that enqueued.
    public func resume(_ continuation: UnsafeContinuation<Void, Never>) -> String? {
        enter()
        parkedCount.subtract(1, ordering: .sequentiallyConsistent)
        continuation.resume()
        drain()
        return escape
    }

    /// Counts a continuation the kernel now holds (call it inside `withCheckedContinuation`).
    public func park() {
        parkedCount.add(1, ordering: .sequentiallyConsistent)
    }

    private func enter() {
        let current = pthread_self()
        shared.withLock { $0.owner = current }
    }

    private func drain() {
        while true {
            let next: UnownedJob? = shared.withLock { state in
                guard state.escape == nil, !state.jobs.isEmpty else { return nil }
                return state.jobs.removeFirst()
            }
            guard let next else { break }
            jobsRun += 1
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
        shared.withLock { $0.owner = nil }
    }
}

/// Where a task on the kernel executor leaves its result for the thread that drains it (only
/// ever touched by that one thread, one job at a time).
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
