import Foundation

/// Combine's `Scheduler`, for `receive(on:)`: the simulation runs a device's code on one
/// executor, so values arrive at once, where they were sent, whatever the scheduler.
public protocol Scheduler {
    associatedtype SchedulerOptions
}

extension DispatchQueue: Scheduler {
    public struct SchedulerOptions: Sendable {}
}

extension RunLoop: Scheduler {
    public struct SchedulerOptions: Sendable {}
}

extension OperationQueue: Scheduler {
    public struct SchedulerOptions: Sendable {}
}

/// Combine's `ImmediateScheduler`.
public struct ImmediateScheduler: Scheduler, Sendable {
    public typealias SchedulerOptions = Never
    public static let shared = ImmediateScheduler()
}

extension Publishers {
    /// Combine's `receive(on:)`: delivers on the sending device's executor, at once.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: subscriber)
        }
    }
}

extension Publisher {
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler)
    }
}
