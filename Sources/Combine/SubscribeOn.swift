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

/// One subscription of `subscribe(on:)`: values come down at once, requests and the cancel
/// go up later.
final class SubscribeOnLink<Downstream: Subscriber, Context: Scheduler>:
    ScheduledLink<Downstream, Context> {
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        isEnded ? .none : downstream.receive(input)
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard end() else { return }
        downstream.receive(completion: completion)
    }

    override func request(_ demand: Subscribers.Demand) {
        scheduler.schedule(options: options) { self.upstream?.request(demand) }
    }

    override func cancel() {
        let subscription = upstream
        guard end() else { return }
        scheduler.schedule(options: options) { subscription?.cancel() }
    }
}

extension Publisher {
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
