extension Publishers {
    /// Combine's `retry(_:)`: after a failure the upstream is subscribed to again, up to
    /// `retries` times (always when nil), with the demand still open.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let retries: Int?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let link = RetryLink(upstream: upstream, downstream: subscriber, retries: retries)
            upstream.receive(subscriber: link)
        }
    }
}

final class RetryLink<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    let downstream: Downstream
    private var left: Int?
    private var subscription: (any Subscription)?
    private var demand = Subscribers.Demand.none
    private var hasDownstream = false
    private var isEnded = false

    init(upstream: Upstream, downstream: Downstream, retries: Int?) {
        self.upstream = upstream
        self.downstream = downstream
        left = retries
    }

    func receive(subscription: any Subscription) {
        guard !isEnded, self.subscription == nil else { return subscription.cancel() }
        self.subscription = subscription
        if !hasDownstream {
            hasDownstream = true
            downstream.receive(subscription: self)
        } else if demand > .none {
            subscription.request(demand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded else { return .none }
        demand -= .max(1)
        let more = downstream.receive(input)
        demand += more
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isEnded else { return }
        subscription = nil
        if case .failure = completion, left.map({ $0 > 0 }) ?? true {
            left = left.map { $0 - 1 }
            return upstream.receive(subscriber: self)
        }
        isEnded = true
        downstream.receive(completion: completion)
    }

    func request(_ more: Subscribers.Demand) {
        guard !isEnded else { return }
        demand += more
        subscription?.request(more)
    }

    func cancel() {
        isEnded = true
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }
}

extension Publisher {
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
