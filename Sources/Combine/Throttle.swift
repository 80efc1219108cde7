extension Publishers {
    /// Combine's `throttle(for:scheduler:latest:)`: at most one value per `interval`. A value
    /// that finds none waiting goes out at once, or when the interval since the last one has
    /// passed; meanwhile the newest (`latest`) or the first value of the interval waits.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let latest: Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ThrottleLink(downstream: subscriber, interval: interval,
                scheduler: scheduler, latest: latest))
        }
    }
}

/// One subscription of `throttle`: the value and completion waiting to go out, and when the
/// last value went.
final class ThrottleLink<Downstream: Subscriber, Context: Scheduler>:
    ForwardingLink<Downstream.Input, Downstream.Failure, Downstream> {
    let interval: Context.SchedulerTimeType.Stride
    let scheduler: Context
    let latest: Bool
    private var waiting: Downstream.Input?
    private var waitingCompletion: Subscribers.Completion<Downstream.Failure>?
    private var lastSent: Context.SchedulerTimeType?

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
         latest: Bool) {
        self.interval = interval
        self.scheduler = scheduler
        self.latest = latest
        super.init(downstream: downstream, asksForEverything: true)
    }

    private var hasWaiting: Bool { waiting != nil || waitingCompletion != nil }

    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        // A value the downstream has not asked for is dropped, not kept for later.
        guard isSubscribed, demand > .none else { return .none }
        if hasWaiting {
            if latest { waiting = input }
            return .none
        }
        let now = scheduler.now
        let earliest = lastSent.map { Swift.max(now, $0.advanced(by: interval)) } ?? now
        demand -= .max(1)
        waiting = input
        if earliest == now {
            scheduler.schedule { [weak self] in self?.emit() }
        } else {
            scheduler.schedule(after: earliest) { [weak self] in self?.emit() }
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard isSubscribed, waitingCompletion == nil else { return }
        let scheduled = hasWaiting
        waitingCompletion = completion
        if !scheduled { scheduler.schedule { [weak self] in self?.emit() } }
    }

    private func emit() {
        guard isSubscribed else { return }
        let value = waiting
        let completion = waitingCompletion
        waiting = nil
        waitingCompletion = nil
        if value != nil, completion == nil { lastSent = scheduler.now }
        if completion != nil { _ = end() }
        if let value { demand += downstream.receive(value) }
        if let completion { downstream.receive(completion: completion) }
    }
}

extension Publisher {
    public func throttle<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, scheduler: S,
                                       latest: Bool) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler,
                            latest: latest)
    }
}
