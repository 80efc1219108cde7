extension Publishers {
    /// Combine's `subscribe(on:options:)`: the subscription, each request and the cancel go
    /// to the upstream through the scheduler (on a device, as tasks after the code that made
    /// them); values come down where the upstream sends them.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let link = SubscribeOnLink(downstream: subscriber, scheduler: scheduler,
                                       options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) { upstream.receive(subscriber: link) }
        }
    }
}

/// One subscription of `subscribe(on:)`.
final class SubscribeOnLink<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription {
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
        isCancelled ? .none : downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isCancelled else { return }
        upstream = nil
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        scheduler.schedule(options: options) { self.upstream?.request(demand) }
    }

    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        let subscription = upstream
        upstream = nil
        scheduler.schedule(options: options) { subscription?.cancel() }
    }
}

extension Publisher {
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
