#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(ExperimentalScheduling) import _Concurrency
import Synchronization

/// The executor every task of one simulated device runs on: the app's own tasks, its
/// actors, `Task {}` and `Task.detached`, the main actor, and `Task.sleep`'s wake-ups.
///
/// Nothing runs until the device's runtime drains the queue on the simulation's thread; jobs
/// then run one at a time in the order they were enqueued, so the order is fixed by the code
/// alone. While a drain runs, `ConcurrencyHooks` send Swift's global executor and main
/// executor here, and `Task.sleep` becomes a kernel timer (`enqueue(_:at:…)`). A job that
/// arrives from another thread (a thread or a dispatch queue the app started) cannot be
/// ordered; the drain stops the run with `foreignMessage`, naming what to use instead.
final class DeviceExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
    // `@unchecked`: the queue is behind the mutex; the rest is read on the simulation's thread.
    private struct Queue {
        var jobs: [UnownedJob] = []
        var owner: pthread_t?
        var foreign = false
    }

    static let foreignMessage =
        "the app's code resumed from another thread (a Thread, a DispatchQueue, an "
        + "OperationQueue, or a continuation resumed outside the simulation), which no seed can "
        + "order; use Swift concurrency (tasks, actors, async let) and SyncLab's CloudKit calls "
        + "(an operation goes to `CKDatabase.add(_:)`)"

    private let queue = Mutex(Queue())
    /// Called with a sleeping job and its delay (the runtime arms a kernel timer).
    var onSleep: ((UnownedJob, Duration) -> Void)?
    private(set) var jobsRun = 0

    func enqueue(_ job: consuming ExecutorJob) {
        append(UnownedJob(job))
    }

    /// Queues a job for the drain; from another thread it is dropped and the drain stops.
    func append(_ job: UnownedJob) {
        let current = pthread_self()
        queue.withLock { state in
            if let owner = state.owner, pthread_equal(owner, current) != 0 {
                state.jobs.append(job)
            } else {
                state.foreign = true
            }
        }
    }

    /// Stops the next drain as a job from another thread would (a CloudKit operation an
    /// `OperationQueue` started on its own thread).
    func noteForeign() {
        queue.withLock { state in state.foreign = true }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    func isSameExclusiveExecutionContext(other: DeviceExecutor) -> Bool { other === self }

    /// The main actor and the device's tasks are one context here: isolated while draining.
    func checkIsolated() {
        precondition(isDraining, "SyncLab: main-actor code ran outside its device's simulation")
    }

    var isDraining: Bool {
        let current = pthread_self()
        return queue.withLock { state in state.owner.map { pthread_equal($0,
            current) != 0 } ?? false }
    }

    /// Calls `start` (which may start tasks here), then runs queued jobs until none is left;
    /// returns whether a job came from another thread.
    func drain(for runtime: DeviceRuntime, after start: () -> Void = {}) -> Bool {
        let current = pthread_self()
        let outer = queue.withLock { state -> pthread_t? in
            let outer = state.owner
            state.owner = current
            return outer
        }
        let previous = ConcurrencyHooks.enter(runtime)
        defer { ConcurrencyHooks.leave(restoring: previous) }
        start()
        while true {
            let next: UnownedJob? = queue.withLock { state in
                state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            guard let next else { break }
            jobsRun += 1
            next.runSynchronously(isolatedTo: asUnownedSerialExecutor(),
                taskExecutor: asUnownedTaskExecutor())
        }
        return queue.withLock { state in
            state.owner = outer
            let foreign = state.foreign
            state.foreign = false
            return foreign
        }
    }
}

@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
@_spi(DeviceScheduling) extension DeviceExecutor: SchedulingExecutor {
    public func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        sleep(UnownedJob(job), delay as? Duration ?? .zero)
    }

    public func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        // The deadline was read off the machine's clock a moment ago: what is left of it,
        // taken to the millisecond, is the duration the code asked for.
        let left = clock.now.duration(to: instant)
        sleep(UnownedJob(job), left as? Duration ?? .zero)
    }

    private func sleep(_ job: UnownedJob, _ delay: Duration) {
        if let onSleep { onSleep(job, delay) } else { append(job) }
    }
}
