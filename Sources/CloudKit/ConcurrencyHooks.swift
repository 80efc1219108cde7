#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CloudSim
import Combine
import ConcurrencyHookShim
import Network

/// Sends Swift's global and main executors to the device whose jobs the calling thread
/// drains, so that `Task {}`, `Task.detached`, `MainActor.run` and `@MainActor` code started
/// by the app run in the simulation's order, not on other threads.
///
/// Swift's runtime consults `swift_task_enqueueGlobal_hook` for every job bound for the
/// global executor and `swift_task_getMainExecutor_hook` whenever it needs the main actor's
/// executor. Both are set once per process, keep any hook set before them, and act only on a
/// thread inside a drain (`enter`); every other thread sees Swift's own executors.
enum ConcurrencyHooks {
    typealias Enqueue = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueHook = @convention(thin) (UnownedJob, Enqueue) -> Void
    typealias MainExecutor = @convention(thin) () -> UnownedSerialExecutor
    typealias MainExecutorHook = @convention(thin) (MainExecutor) -> UnownedSerialExecutor

    /// The runtime draining on the calling thread (unretained), if any.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    nonisolated(unsafe) private static var previousEnqueue: EnqueueHook?
    nonisolated(unsafe) private static var previousMain: MainExecutorHook?

    private static let installed: Bool = {
        let enqueue = UnsafeMutableRawPointer(synclab_enqueue_global_hook())
            .assumingMemoryBound(to: EnqueueHook?.self)
        previousEnqueue = enqueue.pointee
        enqueue.pointee = { job, original in
            if let runtime = ConcurrencyHooks.draining {
                runtime.executor.append(job)
            } else if let previous = ConcurrencyHooks.previousEnqueue {
                previous(job, original)
            } else {
                original(job)
            }
        }
        let main = UnsafeMutableRawPointer(synclab_get_main_executor_hook())
            .assumingMemoryBound(to: MainExecutorHook?.self)
        previousMain = main.pointee
        main.pointee = { original in
            if let runtime =
                ConcurrencyHooks.draining { return runtime.executor.asUnownedSerialExecutor() }
            if let previous = ConcurrencyHooks.previousMain { return previous(original) }
            return original()
        }
        DeviceClock.current = DeviceRuntime.combineClock
        DeviceNetworks.current = { DeviceRuntime.current }
        synclab_set_device_sources({ wall, uptime in
            guard let runtime = ConcurrencyHooks.draining, let wall, let uptime else { return 0 }
            wall.pointee = SimulatedCalendar.microseconds(runtime.now)
            uptime.pointee = SimulatedCalendar.uptimeMicroseconds(runtime.now)
            return 1
        }, { buffer, count in
            guard let runtime = ConcurrencyHooks.draining, let buffer else { return 0 }
            runtime.fillRandom(buffer, count: count)
            return 1
        })
        return true
    }()

    /// The device runtime whose jobs the calling thread runs now.
    static var draining: DeviceRuntime? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<DeviceRuntime>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Marks `runtime` as draining on the calling thread; returns the one it replaces.
    static func enter(_ runtime: DeviceRuntime) -> UnsafeMutableRawPointer? {
        _ = installed
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(runtime).toOpaque())
        synclab_set_device_active(1)
        return outer
    }

    static func leave(restoring outer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, outer)
        synclab_set_device_active(outer == nil ? 0 : 1)
    }
}
