import Foundation

/// Combine's `ImmediateScheduler`: everything at once, where it is asked.
public struct ImmediateScheduler: Scheduler, Sendable {
    public typealias SchedulerOptions = Never

    /// Its time only counts: each read of `now` is the same instant.
    public struct SchedulerTimeType: Strideable, Sendable {
        public typealias Stride = RunLoop.SchedulerTimeType.Stride
        public func distance(to other: Self) -> Stride { 0 }
        public func advanced(by n: Stride) -> Self { self }
    }

    public static let shared = ImmediateScheduler()

    public var now: SchedulerTimeType { SchedulerTimeType() }
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                         tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        action()
        return AnyCancellable {}
    }
}
