extension Publishers {
    /// Combine's `receive(on:options:)`: each value and the completion are handed on through
    /// the scheduler, so they arrive after the code that sent them, as Apple's do (on a device,
    /// as a task of the device at the same instant).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReceiveOnLink(downstream: subscriber,
                scheduler: scheduler, options: options))
        }
    }
}

/// One subscription of `receive(on:)`: demand goes up at once, values come down later.
final class ReceiveOnLink<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    let scheduler: Context
    let options: Context.SchedulerOptions?
    private var upstream: (any Subscription)?
    private var isCancelled = false

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !isCancelled else { return subscription.cancel() }
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        scheduler.schedule(options: options) {
            guard !self.isCancelled else { return }
            let more = self.downstream.receive(input)
            if more > .none { self.upstream?.request(more) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        scheduler.schedule(options: options) {
            guard !self.isCancelled else { return }
            self.upstream = nil
            self.downstream.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        upstream?.request(demand)
    }

    func cancel() {
        isCancelled = true
        let subscription = upstream
        upstream = nil
        subscription?.cancel()
    }
}

extension Publisher {
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
