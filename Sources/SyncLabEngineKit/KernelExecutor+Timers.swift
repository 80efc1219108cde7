@_spi(ExperimentalScheduling) import _Concurrency

/// `Task.sleep` on the kernel executor: refused where it is called, never left to a timer.
///
/// Swift's `Task.sleep` (and `ContinuousClock`/`SuspendingClock`'s `sleep`) creates a job that
/// resumes the sleeping task and hands it to `Task.currentSchedulingExecutor` with its
/// deadline; for code on this executor (an actor's or not: default actors have no scheduling
/// executor of their own) that is the task's preferred executor, this one. Left to the global
/// executor, the timer fired on another thread, and when it fired before the task had
/// finished suspending (a sleep of a few microseconds, or of a millisecond on a loaded
/// machine), the runtime did not suspend the task at all and the code after the sleep ran on
/// the simulation's thread unnoticed. Here the timer is refused on the simulation's thread,
/// inside the job that called `Task.sleep`, and never runs: the task stays asleep and the run
/// ends with `timerMessage`, the same on every machine.
///
/// `SchedulingExecutor` is an SPI of Swift 6.3's concurrency library (`ExperimentalScheduling`);
/// the conformance is SPI too, so it is no part of SyncLabEngineKit's public API.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
@_spi(KernelScheduling) extension KernelExecutor: SchedulingExecutor {
    public func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        refuse(Self.timerMessage)
    }

    public func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        refuse(Self.timerMessage)
    }
}

extension KernelExecutor {
    /// Why a run that called `Task.sleep` stops.
    static let timerMessage = "the engine's async code called Task.sleep (or a clock's sleep), which waits for "
        + "the machine's clock; wait in simulated time with `await syncEngine.sleep(for:)`"
}
