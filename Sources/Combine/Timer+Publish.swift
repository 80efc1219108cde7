import Foundation

extension Timer {
    /// Combine's `Timer.publish(every:tolerance:on:in:options:)`: the date, every `interval`
    /// once connected. From a device's code it ticks in the device's simulated time (and the
    /// dates are simulated ones). A running timer is always due within its interval, so a
    /// `settle` lets it tick for an hour of simulated time, as it waits for any timer due
    /// within the hour; cancel it first, or wait a span instead.
    public static func publish(every interval: TimeInterval, tolerance: TimeInterval? = nil,
                               on runLoop: RunLoop, in mode: RunLoop.Mode,
                               options: RunLoop.SchedulerOptions? = nil) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode,
                       options: options)
    }

    /// Combine's `Timer.TimerPublisher`.
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = Date
        public typealias Failure = Never
        public let interval: TimeInterval
        public let tolerance: TimeInterval?
        public let runLoop: RunLoop
        public let mode: RunLoop.Mode
        public let options: RunLoop.SchedulerOptions?
        private let fanOut = FanOut<Date, Never>()
        private var ticking: (any Cancellable)?

        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop,
                    mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        public func connect() -> any Cancellable {
            if ticking == nil {
                let every = RunLoop.SchedulerTimeType.Stride(interval)
                // Held by its own ticking while connected, as a run loop holds its timers.
                ticking = runLoop.schedule(after: runLoop.now.advanced(by: every),
                    interval: every, tolerance: .init(tolerance ?? 0), options: options) {
                    self.fanOut.send(RunLoop.SchedulerTimeType.now.date)
                }
            }
            return AnyCancellable {
                self.ticking?.cancel()
                self.ticking = nil
            }
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Date, S.Failure == Never {
            fanOut.attach(subscriber)
        }
    }
}
