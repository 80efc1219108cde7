extension Publishers {
    /// Combine's `timeout(_:scheduler:options:customError:)`: the stream ends when `interval`
    /// passes with no value (from the subscription, then from each value), finished or with
    /// the custom error.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?
        public let customError: (() -> Failure)?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TimeoutLink(downstream: subscriber, timeout: self))
        }
    }
}

/// One subscription of `timeout`: a count that tells a stale wait from the current one.
final class TimeoutLink<Downstream: Subscriber, Upstream: Publisher, Context: Scheduler>:
    ForwardingLink<Downstream.Input, Downstream.Failure, Downstream>
where Upstream.Failure == Downstream.Failure {
    let timeout: Publishers.Timeout<Upstream, Context>
    private var generation = 0

    init(downstream: Downstream, timeout: Publishers.Timeout<Upstream, Context>) {
        self.timeout = timeout
        super.init(downstream: downstream, asksForEverything: true)
    }

    override func receive(subscription: any Subscription) {
        super.receive(subscription: subscription)
        wait()
    }

    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard isSubscribed else { return .none }
        offer(input)
        wait()
        return .none
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard end() else { return }
        downstream.receive(completion: completion)
    }

    private func wait() {
        generation += 1
        let current = generation
        let scheduler = timeout.scheduler
        scheduler.schedule(after: scheduler.now.advanced(by: timeout.interval),
                           tolerance: scheduler.minimumTolerance, options: timeout.options) {
            [weak self] in self?.due(current)
        }
    }

    private func due(_ wait: Int) {
        guard isSubscribed, wait == generation else { return }
        let completion: Subscribers.Completion<Downstream.Failure> =
            timeout.customError.map { .failure($0()) } ?? .finished
        cancel()
        downstream.receive(completion: completion)
    }
}

extension Publisher {
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S,
        options: S.SchedulerOptions? = nil, customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler,
                           options: options, customError: customError)
    }
}
