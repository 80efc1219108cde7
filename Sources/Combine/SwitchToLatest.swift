extension Publishers {
    /// Combine's `switchToLatest()`: the values of the newest inner publisher; a new one
    /// cancels the one before.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure
        public let upstream: Upstream

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: SwitchLink<P, S>(downstream: subscriber))
        }
    }
}

/// The subscription of `switchToLatest()`: the outer upstream, the current inner one, and the
/// demand left for the inner ones.
final class SwitchLink<P: Publisher, Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    typealias Input = P
    typealias Failure = P.Failure
    let downstream: Downstream
    private var outer: (any Subscription)?
    private var inner: (any Subscription)?
    /// Counts the inner publishers, so that a cancelled one's late events are ignored.
    private var generation = 0
    private var demand = Subscribers.Demand.none
    private var outerFinished = false
    private var innerOpen = false
    private var isEnded = false

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    func receive(subscription: any Subscription) {
        guard outer == nil, !isEnded else { return subscription.cancel() }
        outer = subscription
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: P) -> Subscribers.Demand {
        guard !isEnded else { return .none }
        let previous = inner
        inner = nil
        previous?.cancel()
        generation += 1
        innerOpen = true
        input.receive(subscriber: SwitchInner(link: self, generation: generation))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        outer = nil
        outerFinished = true
        if case .failure = completion { return end(completion) }
        if !innerOpen { end(.finished) }
    }

    func innerAttached(_ subscription: any Subscription, generation: Int) {
        guard !isEnded, generation == self.generation else { return subscription.cancel() }
        inner = subscription
        if demand > .none { subscription.request(demand) }
    }

    func innerSent(_ value: P.Output, generation: Int) -> Subscribers.Demand {
        guard !isEnded, generation == self.generation else { return .none }
        demand -= .max(1)
        let more = downstream.receive(value)
        demand += more
        return more
    }

    func innerEnded(_ completion: Subscribers.Completion<Failure>, generation: Int) {
        guard !isEnded, generation == self.generation else { return }
        inner = nil
        innerOpen = false
        if case .failure = completion { return end(completion) }
        if outerFinished { end(.finished) }
    }

    func request(_ more: Subscribers.Demand) {
        guard !isEnded else { return }
        demand += more
        inner?.request(more)
    }

    func cancel() {
        isEnded = true
        cancelUpstreams()
    }

    private func end(_ completion: Subscribers.Completion<Failure>) {
        guard !isEnded else { return }
        isEnded = true
        cancelUpstreams()
        downstream.receive(completion: completion)
    }

    private func cancelUpstreams() {
        let (outer, inner) = (self.outer, self.inner)
        self.outer = nil
        self.inner = nil
        outer?.cancel()
        inner?.cancel()
    }
}

/// The subscriber to one inner publisher of `switchToLatest()`.
struct SwitchInner<P: Publisher, Downstream: Subscriber>: Subscriber
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    let link: SwitchLink<P, Downstream>
    let generation: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
        link.innerAttached(subscription, generation: generation)
    }

    func receive(_ input: P.Output) -> Subscribers.Demand {
        link.innerSent(input, generation: generation)
    }

    func receive(completion: Subscribers.Completion<P.Failure>) {
        link.innerEnded(completion, generation: generation)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}
