import Foundation

/// `DispatchQueue` as Combine's scheduler. From a device's code its time is the device's
/// simulated time and what it schedules runs on the device (`DeviceTimer`); elsewhere it is
/// Dispatch's own.
extension DispatchQueue: Scheduler {
    public struct SchedulerOptions {
        public var qos: DispatchQoS
        public var flags: DispatchWorkItemFlags
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                    group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// Combine's time on a dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
        public var dispatchTime: DispatchTime

        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        public func distance(to other: Self) -> Stride {
            let start = Int64(bitPattern: dispatchTime.uptimeNanoseconds)
            let end = Int64(bitPattern: other.dispatchTime.uptimeNanoseconds)
            return .nanoseconds(Int(end &- start))
        }

        public func advanced(by n: Stride) -> Self {
            let start = Int64(bitPattern: dispatchTime.uptimeNanoseconds)
            let moved = max(0, start &+ Int64(n.magnitude))
            return Self(DispatchTime(uptimeNanoseconds: UInt64(moved)))
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        public init(from decoder: any Decoder) throws {
            let nanoseconds = try decoder.singleValueContainer().decode(UInt64.self)
            dispatchTime = DispatchTime(uptimeNanoseconds: nanoseconds)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// A span of dispatch time, in nanoseconds (`magnitude`, signed as Apple's is).
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
            public typealias FloatLiteralType = Double
            public typealias IntegerLiteralType = Int
            public typealias Magnitude = Int

            public var magnitude: Int

            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            public init(_ timeInterval: DispatchTimeInterval) {
                magnitude = Self.nanoseconds(in: timeInterval)
            }

            /// Seconds.
            public init(_ timeInterval: Double) {
                magnitude = Int(timeInterval * 1_000_000_000)
            }

            public init(floatLiteral value: Double) { self.init(value) }
            public init(integerLiteral value: Int) { magnitude = value * 1_000_000_000 }

            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                guard !overflow else { return nil }
                magnitude = nanoseconds
            }

            private init(nanoseconds: Int) { magnitude = nanoseconds }

            private static func nanoseconds(in interval: DispatchTimeInterval) -> Int {
                switch interval {
                case .seconds(let value): return value * 1_000_000_000
                case .milliseconds(let value): return value * 1_000_000
                case .microseconds(let value): return value * 1_000
                case .nanoseconds(let value): return value
                case .never: return .max
                @unknown default: return .max
                }
            }

            public static func seconds(_ s: Int) -> Self { Self(nanoseconds: s * 1_000_000_000) }
            public static func seconds(_ s: Double) -> Self { Self(s) }
            public static func milliseconds(_ ms: Int) -> Self { Self(nanoseconds: ms * 1_000_000) }
            public static func microseconds(_ us: Int) -> Self { Self(nanoseconds: us * 1_000) }
            public static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: ns) }

            public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Self, rhs: Self) -> Self {
                Self(nanoseconds: lhs.magnitude + rhs.magnitude)
            }
            public static func - (lhs: Self, rhs: Self) -> Self {
                Self(nanoseconds: lhs.magnitude - rhs.magnitude)
            }
            public static func * (lhs: Self, rhs: Self) -> Self {
                Self(nanoseconds: lhs.magnitude * rhs.magnitude)
            }
            public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
            public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
            public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
        }
    }

    public var now: SchedulerTimeType {
        guard let clock = DeviceClock.current() else { return SchedulerTimeType(.now()) }
        let (seconds, attoseconds) = clock.elapsed.components
        let nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        return SchedulerTimeType(DispatchTime(uptimeNanoseconds: nanoseconds))
    }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if let clock = DeviceClock.current() {
            DeviceTimer.start(on: clock, after: 0, action)
        } else {
            let work = DispatchWork(action)
            async(group: options?.group, qos: options?.qos ?? .unspecified,
                  flags: options?.flags ?? []) { work.run() }
        }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if let clock = DeviceClock.current() {
            DeviceTimer.start(on: clock, after: Self.delay(now.distance(to: date)), action)
        } else {
            let work = DispatchWork(action)
            asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified,
                       flags: options?.flags ?? []) { work.run() }
        }
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        let delay = Self.delay(now.distance(to: date))
        let period = Self.delay(interval)
        if let clock = DeviceClock.current() {
            return DeviceTimer.start(on: clock, after: delay, every: period, action)
        }
        let timer = DispatchSource.makeTimerSource(queue: self)
        let work = DispatchWork(action)
        timer.setEventHandler { work.run() }
        timer.schedule(deadline: date.dispatchTime, repeating: .nanoseconds(Int(period)))
        timer.activate()
        return AnyCancellable { timer.cancel() }
    }

    /// A stride as a wait in nanoseconds; a past date is no wait.
    private static func delay(_ stride: SchedulerTimeType.Stride) -> UInt64 {
        UInt64(max(0, stride.magnitude))
    }
}

/// An app's action handed to Dispatch's threads (outside the simulation only).
final class DispatchWork: @unchecked Sendable {
    // `@unchecked`: Dispatch runs it once on its queue; the app owns what it touches.
    private let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    func run() { action() }
}
