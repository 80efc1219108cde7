extension Publishers {
    /// Combine's `first()` and `first(where:)`: the first value that matches, then the end.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: PrefixLink(downstream: subscriber, limit: 1) {
                predicate($0) ? $0 : nil
            })
        }
    }

    /// Combine's `prefix(_:)`, `output(at:)` and `output(in:)`: the values at the positions
    /// of `range`, then the end.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let range: CountableRange<Int>

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Upstream.Output, S.Failure == Failure {
            let skipped = Counter(range.lowerBound)
            let link = PrefixLink<Upstream.Output, Failure, S>(
                downstream: subscriber, limit: range.count
            ) { skipped.take() ? nil : $0 }
            upstream.receive(subscriber: link)
        }
    }
}

extension Publishers {
    /// Combine's `prefix(while:)`: values while they match; the first that does not ends the
    /// stream.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: PrefixWhileLink(downstream: subscriber,
                                                         predicate: predicate))
        }
    }
}

/// `prefix(while:)`: the value that does not match is not sent; it ends the stream.
final class PrefixWhileLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == Input, Downstream.Failure == Failure {
    let predicate: (Input) -> Bool

    init(downstream: Downstream, predicate: @escaping (Input) -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded else { return .none }
        guard predicate(input) else {
            finishEarly(.finished)
            return .none
        }
        return deliver(input)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard end() else { return }
        downstream.receive(completion: completion)
    }
}

/// A subscription that passes on the values `pick` keeps until `limit` went, then ends the
/// stream and cancels the upstream.
final class PrefixLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream> where Downstream.Failure == Failure {
    let pick: (Input) -> Downstream.Input?
    private var left: Int

    init(downstream: Downstream, limit: Int, pick: @escaping (Input) -> Downstream.Input?) {
        self.pick = pick
        left = limit
        super.init(downstream: downstream)
    }

    override func receive(subscription: any Subscription) {
        super.receive(subscription: subscription)
        if left <= 0 { finishEarly(.finished) }
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded else { return .none }
        guard let value = pick(input) else { return .max(1) }
        left -= 1
        guard left > 0 else {
            let subscription = upstream
            end()
            subscription?.cancel()
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
            return .none
        }
        return deliver(value)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard end() else { return }
        downstream.receive(completion: completion)
    }
}

extension Publisher {
    public func first() -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self) { _ in true }
    }

    public func first(where predicate: @escaping (Output) -> Bool)
        -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "prefix: a negative length")
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }

    public func prefix(while predicate: @escaping (Output) -> Bool)
        -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index...index)
    }

    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self>
    where R.Bound == Int {
        let bounds = range.relative(to: 0..<Int.max)
        precondition(bounds.lowerBound >= 0, "output(in:): a negative position")
        return Publishers.Output(upstream: self, range: bounds)
    }
}
