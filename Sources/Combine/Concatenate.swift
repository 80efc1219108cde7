extension Publishers {
    /// Combine's `prepend` and `append`: every value of `prefix`, then, once it finished,
    /// every value of `suffix`; a failure of the prefix ends the stream.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure
        public let prefix: Prefix
        public let suffix: Suffix

        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            prefix.receive(subscriber: ConcatenateLink(downstream: subscriber, suffix: suffix))
        }
    }
}

/// One subscription of `Concatenate`: the downstream's demand not met by the prefix is asked
/// of the suffix when it is subscribed.
final class ConcatenateLink<Suffix: Publisher, Downstream: Subscriber>: Subscriber, Subscription
where Suffix.Output == Downstream.Input, Suffix.Failure == Downstream.Failure {
    typealias Input = Suffix.Output
    typealias Failure = Suffix.Failure
    let downstream: Downstream
    /// The publisher still to subscribe to; nil once it is.
    private var suffix: Suffix?
    private var upstream: (any Subscription)?
    private var demand = Subscribers.Demand.none
    private var isEnded = false
    private var isStarted = false

    init(downstream: Downstream, suffix: Suffix) {
        self.downstream = downstream
        self.suffix = suffix
    }

    func receive(subscription: any Subscription) {
        guard !isEnded, upstream == nil else { return subscription.cancel() }
        upstream = subscription
        guard isStarted else {
            isStarted = true
            return downstream.receive(subscription: self)
        }
        if demand > .none { subscription.request(demand) }
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
        upstream = nil
        if case .finished = completion, let next = suffix {
            suffix = nil
            return next.receive(subscriber: self)
        }
        isEnded = true
        downstream.receive(completion: completion)
    }

    func request(_ more: Subscribers.Demand) {
        guard !isEnded else { return }
        demand += more
        upstream?.request(more)
    }

    func cancel() {
        guard !isEnded else { return }
        isEnded = true
        suffix = nil
        let subscription = upstream
        upstream = nil
        subscription?.cancel()
    }
}

extension Publisher {
    public func prepend(_ elements: Output...)
        -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(elements)
    }

    public func prepend<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where S.Element == Output {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    public func append(_ elements: Output...)
        -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(elements)
    }

    public func append<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where S.Element == Output {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}
