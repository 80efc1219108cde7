import Foundation

/// `RunLoop` as Combine's scheduler, as `DispatchQueue` is: from a device's code, simulated
/// time and the device's executor; elsewhere the run loop's own timers.
extension RunLoop: Scheduler {
    public struct SchedulerOptions: Sendable {}

    /// Combine's time on a run loop (and an operation queue): a `Date`.
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
        public var date: Date

        public init(_ date: Date) {
            self.date = date
        }

        public func distance(to other: Self) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        public func advanced(by n: Stride) -> Self {
            Self(date.addingTimeInterval(n.timeInterval))
        }

        /// A span of time in seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
            public typealias FloatLiteralType = TimeInterval
            public typealias IntegerLiteralType = TimeInterval
            public typealias Magnitude = TimeInterval

            public var magnitude: TimeInterval

            public var timeInterval: TimeInterval { magnitude }

            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
            public init(floatLiteral value: TimeInterval) { magnitude = value }
            public init(integerLiteral value: TimeInterval) { magnitude = value }

            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
            public static func seconds(_ s: Double) -> Self { Self(s) }
            public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1e3) }
            public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1e6) }
            public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1e9) }

            public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Self, rhs: Self) -> Self {
                Self(lhs.magnitude + rhs.magnitude)
            }
            public static func - (lhs: Self, rhs: Self) -> Self {
                Self(lhs.magnitude - rhs.magnitude)
            }
            public static func * (lhs: Self, rhs: Self) -> Self {
                Self(lhs.magnitude * rhs.magnitude)
            }
            public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
            public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
            public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
        }

        /// A stride as a wait in nanoseconds; a past date is no wait.
        static func delay(_ stride: Stride) -> UInt64 {
            UInt64(max(0, (stride.timeInterval * 1e9).rounded()))
        }

        /// Now, on the device whose code runs, else on the machine's clock.
        static var now: Self {
            Self(DeviceClock.current()?.date ?? Date())
        }

        /// Runs `action` on the device after the code running now; off a device, `elsewhere`.
        static func scheduleNow(_ action: @escaping () -> Void,
                                elsewhere: (DispatchWork) -> Void) {
            if let clock = DeviceClock.current() {
                DeviceTimer.start(on: clock, after: 0, action)
            } else {
                elsewhere(DispatchWork(action))
            }
        }

        /// Runs `action` at `date`, then every `interval` if given, on the device; off a device,
        /// `elsewhere` (given the delay in nanoseconds) arranges it.
        static func schedule(at date: Self, every interval: Stride?,
                             _ action: @escaping () -> Void,
                             elsewhere: (UInt64, DispatchWork) -> any Cancellable)
            -> any Cancellable {
            let delay = delay(now.distance(to: date))
            guard let clock = DeviceClock.current() else {
                return elsewhere(delay, DispatchWork(action))
            }
            return DeviceTimer.start(on: clock, after: delay, every: interval.map(Self.delay),
                                     action)
        }
    }

    public var now: SchedulerTimeType { .now }

    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        SchedulerTimeType.scheduleNow(action) { work in perform { work.run() } }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) {
        _ = schedule(after: date, every: nil, action)
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        schedule(after: date, every: interval, action)
    }

    private func schedule(after date: SchedulerTimeType, every interval: SchedulerTimeType.Stride?,
                          _ action: @escaping () -> Void) -> any Cancellable {
        SchedulerTimeType.schedule(at: date, every: interval, action) { _, work in
            let timer = Timer(fire: date.date, interval: interval?.timeInterval ?? 0,
                              repeats: interval != nil) { _ in work.run() }
            add(timer, forMode: .default)
            return AnyCancellable { timer.invalidate() }
        }
    }
}

/// `OperationQueue` as Combine's scheduler: from a device's code, as `RunLoop`; elsewhere an
/// operation added when the time comes.
extension OperationQueue: Scheduler {
    public struct SchedulerOptions: Sendable {}

    public typealias SchedulerTimeType = RunLoop.SchedulerTimeType

    public var now: SchedulerTimeType { .now }

    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        SchedulerTimeType.scheduleNow(action) { work in addOperation { work.run() } }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) {
        _ = schedule(after: date, every: nil, action)
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        schedule(after: date, every: interval, action)
    }

    private func schedule(after date: SchedulerTimeType, every interval: SchedulerTimeType.Stride?,
                          _ action: @escaping () -> Void) -> any Cancellable {
        SchedulerTimeType.schedule(at: date, every: interval, action) { delay, work in
            let timer = DispatchSource.makeTimerSource()
            timer.setEventHandler { [weak self] in self?.addOperation { work.run() } }
            let period = interval.map {
                DispatchTimeInterval.nanoseconds(Int(SchedulerTimeType.delay($0)))
            } ?? .never
            timer.schedule(deadline: .now() + .nanoseconds(Int(delay)), repeating: period)
            timer.activate()
            return AnyCancellable { timer.cancel() }
        }
    }
}
