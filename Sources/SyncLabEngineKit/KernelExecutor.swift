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
/// here too, and so does `Task.yield()` (Swift enqueues its continuation on the current
/// executor); the order of jobs is then fixed by the code alone, as on NIO's
/// `EmbeddedEventLoop`.
///
/// What would make a run depend on the machine is refused, with a message, never a hang.
/// A job that reaches the executor from another thread cannot be the only check: when
/// something on another thread resumes a task *before* the task has finished suspending (a
/// timer that fires at once, a task that is already done), Swift's runtime does not suspend
/// it at all (`swift_continuation_await` finds the continuation resumed and goes on), and the
/// code after the `await` runs on the simulation's thread inside the same job, with no job
/// enqueued. So the causes are refused where they start, on the simulation's thread, at a
/// point the code alone fixes:
/// - `Task.sleep` (and a clock's `sleep`): Swift hands its timer job to the current
///   scheduling executor, which is this one (`KernelExecutor+Timers.swift`); the timer is
///   refused and never runs, so the task never wakes.
/// - an unstructured `Task {}` or `Task.detached`: it is enqueued on the global executor from
///   the simulation's thread, which `GlobalExecutorGuard` sees; the task is refused and never
///   runs.
/// Both stop the run at once (no job runs after them). What is left is refused when it
/// shows: a job enqueued from another thread (a continuation resumed elsewhere, the main
/// actor) is dropped and the run drains its own jobs to the end before it stops, so the
/// run's jobs and the message do not depend on when that job arrived; and a body that ended
/// the drain suspended on something the kernel does not own. A continuation that another
/// thread resumes before the task suspends is the one escape this cannot see (see
/// docs/BRING-YOUR-OWN-ENGINE.md). After a refusal the executor runs nothing more.
public final class KernelExecutor: TaskExecutor, @unchecked Sendable {
    // `@unchecked`: every mutable field is behind the mutex.
    private struct Shared {
        var jobs: [UnownedJob] = []
        /// The thread inside `run(_:)`, nil outside it.
        var owner: pthread_t?
        var escape: String?
        /// A job came from another thread during the drain (dropped; the drain goes on).
        var foreignJob = false
    }

    /// Why a run stops when a job comes from another thread or the body never resumes: one
    /// message for both, since which of the two a run sees depends on the machine's timing.
    static let notDriven = "the engine's async code waited for something the simulation does not drive, which "
        + "came back from another thread or never resumes (the main actor, a continuation resumed by another "
        + "thread or by no one); use structured concurrency, actors, and the sync engine's own async calls"

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
            } else if state.owner != nil {
                // Dropped; the drain runs its own jobs to the end, then stops the run.
                state.foreignJob = true
            } else {
                state.escape = Self.notDriven
            }
        }
    }

    /// Stops the executor at once (from the simulation's thread, inside a job): a job of the
    /// engine started something that runs off the kernel (`Task.sleep`'s timer, a task on the
    /// global executor). The first reason is kept.
    func refuse(_ message: String) {
        shared.withLock { state in
            if state.escape == nil { state.escape = message }
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
        shared.withLock { $0.escape = Self.notDriven }
        return .escaped(Self.notDriven)
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
        let outer = GlobalExecutorGuard.enter(self)
        defer { GlobalExecutorGuard.leave(restoring: outer) }
        while true {
            let next: UnownedJob? = shared.withLock { state in
                guard state.escape == nil, !state.jobs.isEmpty else { return nil }
                return state.jobs.removeFirst()
            }
            guard let next else { break }
            jobsRun += 1
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
        shared.withLock { state in
            state.owner = nil
            if state.foreignJob, state.escape == nil { state.escape = Self.notDriven }
            state.foreignJob = false
        }
    }
}

/// Where a task on the kernel executor leaves its result for the thread that drains it (only
/// ever touched by that one thread, one job at a time).
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
