import Foundation

/// What Combine's schedulers need of the simulated device whose code runs now: its time, and
/// a way to start a task on its executor, where `Task.sleep` waits in simulated time.
package struct DeviceClock: Sendable {
    /// Simulated time since the run began.
    package let elapsed: Duration
    /// The same instant as a date.
    package let date: Date
    /// Starts a task on the device's executor.
    package let startTask: @Sendable (@escaping @Sendable () async -> Void) -> Void

    package init(elapsed: Duration, date: Date,
                 startTask: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Void) {
        self.elapsed = elapsed
        self.date = date
        self.startTask = startTask
    }

    /// The device whose code runs on the calling thread; nil off a device. SyncLab's CloudKit
    /// facade sets it before it runs a device's code.
    nonisolated(unsafe) package static var current: @Sendable () -> DeviceClock? = { nil }
}

/// An action waiting in a device's simulated time, then repeating every `interval` if one is
/// given; cancelling it keeps it from running again.
final class DeviceTimer: Cancellable, @unchecked Sendable {
    // `@unchecked`: touched only by one device's jobs, on the simulation's thread.
    private var action: (() -> Void)?

    private init(_ action: @escaping () -> Void) {
        self.action = action
    }

    /// Starts `action` on `clock`'s device after `delay` nanoseconds (after the code running
    /// now, for zero).
    @discardableResult
    static func start(on clock: DeviceClock, after delay: UInt64, every interval: UInt64? = nil,
                      _ action: @escaping () -> Void) -> DeviceTimer {
        let timer = DeviceTimer(action)
        clock.startTask { await timer.run(after: delay, every: interval) }
        return timer
    }

    private func run(after delay: UInt64, every interval: UInt64?) async {
        var wait = delay
        while true {
            if wait > 0 { try? await Task.sleep(nanoseconds: wait) }
            guard let action else { return }
            action()
            guard let interval, self.action != nil else { return }
            // Simulated sleeps count whole milliseconds: a shorter period would not advance.
            wait = max(interval, 1_000_000)
        }
    }

    func cancel() {
        action = nil
    }
}
