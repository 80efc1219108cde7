#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refuses a task that the engine's code starts on Swift's global executor (an unstructured
/// `Task {}` or `Task.detached`) while a `KernelExecutor` drains its jobs on this thread.
///
/// Such a task runs on another thread, so what it does, and when a task awaiting it goes on,
/// depends on the machine: when it finished before the awaiting task had suspended, the
/// runtime did not suspend that task and the run went on as if nothing had left the kernel.
/// The enqueue itself, though, happens on the simulation's thread, inside the job that
/// created the task, at a point the code alone fixes. Swift's runtime passes every enqueue on
/// the global executor through `swift_task_enqueueGlobal_hook` when one is set; this guard
/// sets it once per process (keeping any hook set before, which it calls for every other
/// enqueue) and, when the calling thread is draining a kernel executor, stops that executor
/// with `message` and drops the job: the task never runs. Other threads, and this thread
/// outside a drain, are not affected. Where the runtime has no such hook, nothing is installed
/// and such a task is caught only when it comes back (KernelExecutor).
enum GlobalExecutorGuard {
    /// Why a run that started a task on the global executor stops.
    static let message = "the engine's async code started a task on the global executor (an unstructured "
        + "Task {} or Task.detached), which would run on another thread; use async let, a task group, or "
        + "Task(executorPreference: syncEngine.executor)"

    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The kernel executor draining on the calling thread (unretained), if any.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The hook that was set before this one (set once, before ours is installed).
    nonisolated(unsafe) private static var previous: Hook?

    private static let installed: Bool = {
        guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "swift_task_enqueueGlobal_hook") else { return false }
        let hook = symbol.assumingMemoryBound(to: Hook?.self)
        previous = hook.pointee
        hook.pointee = { job, original in
            if let draining = pthread_getspecific(GlobalExecutorGuard.key) {
                Unmanaged<KernelExecutor>.fromOpaque(draining).takeUnretainedValue()
                    .refuse(GlobalExecutorGuard.message)
                return
            }
            if let previous = GlobalExecutorGuard.previous { previous(job, original) } else { original(job) }
        }
        return true
    }()

    /// Marks `executor` as draining on the calling thread; returns the one it replaces (a
    /// nested drain), for `leave`.
    static func enter(_ executor: KernelExecutor) -> UnsafeMutableRawPointer? {
        _ = installed
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(executor).toOpaque())
        return outer
    }

    /// Ends the drain on the calling thread.
    static func leave(restoring outer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, outer)
    }
}
