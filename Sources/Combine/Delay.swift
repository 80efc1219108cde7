extension Publishers {
    /// Combine's `delay(for:tolerance:scheduler:options:)`: every value, and the completion,
    /// delivered `interval` after it arrived.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let tolerance: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DelayLink(downstream: subscriber, delay: self))
        }
    }
}

/// One subscription of `delay`.
final class DelayLink<Downstream: Subscriber, Upstream: Publisher, Context: Scheduler>:
    ForwardingLink<Downstream.Input, Downstream.Failure, Downstream>
where Upstream.Output == Downstream.Input {
    let delay: Publishers.Delay<Upstream, Context>

    init(downstream: Downstream, delay: Publishers.Delay<Upstream, Context>) {
        self.delay = delay
        super.init(downstream: downstream, asksForEverything: true)
    }

    private func later(_ action: @escaping () -> Void) {
        delay.scheduler.schedule(after: delay.scheduler.now.advanced(by: delay.interval),
                                 tolerance: delay.tolerance, options: delay.options, action)
    }

    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard isSubscribed else { return .none }
        later { [weak self] in
            guard let self, self.isSubscribed else { return }
            self.offer(input)
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard isSubscribed else { return }
        later { [weak self] in
            guard let self, self.end() else { return }
            self.downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    public func delay<S: Scheduler>(for interval: S.SchedulerTimeType.Stride,
                                    tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
                                    options: S.SchedulerOptions? = nil)
        -> Publishers.Delay<Self, S> {
        Publishers.Delay(upstream: self, interval: interval,
                         tolerance: tolerance ?? scheduler.minimumTolerance,
                         scheduler: scheduler, options: options)
    }
}
