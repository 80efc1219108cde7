extension Publishers {
    /// Combine's `flatMap(maxPublishers:_:)`: each value becomes a publisher, whose values all
    /// go down as they come; at most `maxPublishers` run at once (the next value is asked for
    /// when one finishes).
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let maxPublishers: Subscribers.Demand
        public let transform: (Upstream.Output) -> NewPublisher

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let fanIn = FanIn<Output, Failure, S>(downstream: subscriber, moreToCome: true)
            subscriber.receive(subscription: fanIn)
            upstream.receive(subscriber: FlatMapOuter(fanIn: fanIn, limit: maxPublishers,
                                                      transform: transform))
        }
    }
}

/// The subscriber to `flatMap`'s upstream: it starts one inner publisher per value.
final class FlatMapOuter<Input, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    typealias Failure = NewPublisher.Failure
    let fanIn: FanIn<NewPublisher.Output, Failure, Downstream>
    let limit: Subscribers.Demand
    let transform: (Input) -> NewPublisher
    private var upstream: (any Subscription)?

    init(fanIn: FanIn<NewPublisher.Output, Failure, Downstream>, limit: Subscribers.Demand,
         transform: @escaping (Input) -> NewPublisher) {
        self.fanIn = fanIn
        self.limit = limit
        self.transform = transform
    }

    func receive(subscription: any Subscription) {
        upstream = subscription
        subscription.request(limit)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let limited = limit != .unlimited
        let inner = fanIn.source { (value: NewPublisher.Output) in value }
        transform(input).receive(subscriber: FlatMapInner(inner: inner) { [weak self] in
            if limited { self?.upstream?.request(.max(1)) }
        })
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        upstream = nil
        fanIn.noMoreSources(completion)
    }
}

/// One inner publisher's subscriber: tells the outer one when it finished (for the limit).
struct FlatMapInner<Output, Failure: Error, Downstream: Subscriber>: Subscriber
where Downstream.Input == Output, Downstream.Failure == Failure {
    let inner: FanInSource<Output, Output, Failure, Downstream>
    let finished: () -> Void
    var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

    func receive(subscription: any Subscription) { inner.receive(subscription: subscription) }
    func receive(_ input: Output) -> Subscribers.Demand { inner.receive(input) }

    func receive(completion: Subscribers.Completion<Failure>) {
        inner.receive(completion: completion)
        if case .finished = completion { finished() }
    }
}

extension Publisher {
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }
}

extension Publisher {
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self>
    where P.Failure == Never {
        flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}
