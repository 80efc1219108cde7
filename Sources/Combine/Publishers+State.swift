extension Publishers {
    /// Combine's `dropFirst(_:)`: leaves out the first values, counted per subscription.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let left = Counter(count)
            upstream.receive(subscriber: Relay(downstream: subscriber) { value in
                left.take() ? nil : value
            })
        }
    }

    /// Combine's `removeDuplicates()`: leaves out a value equal to the one before it.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output, Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let last = Last<Output>()
            let predicate = self.predicate
            upstream.receive(subscriber: Relay(downstream: subscriber) { value in
                defer { last.value = value }
                guard let previous = last.value, predicate(previous, value) else { return value }
                return nil
            })
        }
    }

    /// Combine's `drop(while:)`: leaves out values until one does not match, then passes
    /// every value on.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let dropping = Last<Bool>()
            upstream.receive(subscriber: Relay(downstream: subscriber) { value in
                if dropping.value != false, predicate(value) { return nil }
                dropping.value = false
                return value
            })
        }
    }

    /// Combine's `replaceEmpty(with:)`: the values, or the given one when the stream finishes
    /// without any.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let output: Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceEmptyLink(downstream: subscriber,
                                                          output: output))
        }
    }
}

/// What a stateful operator keeps for one subscription.
final class Counter {
    var left: Int
    init(_ left: Int) { self.left = left }

    /// Whether one more is to be left out.
    func take() -> Bool {
        guard left > 0 else { return false }
        left -= 1
        return true
    }
}

final class Last<Value> {
    var value: Value?
}

extension Publisher {
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }

    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
        -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publisher {
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

/// `replaceEmpty(with:)`: the value waits for demand when none is left at the end.
final class ReplaceEmptyLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == Input, Downstream.Failure == Failure {
    let output: Input
    private var sawValue = false
    private var finished = false

    init(downstream: Downstream, output: Input) {
        self.output = output
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded else { return .none }
        sawValue = true
        return deliver(input)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard !isEnded else { return }
        guard case .finished = completion, !sawValue else {
            end()
            return downstream.receive(completion: completion)
        }
        finished = true
        if demand > .none { replace() }
    }

    override func request(_ more: Subscribers.Demand) {
        super.request(more)
        if finished, demand > .none { replace() }
    }

    private func replace() {
        guard end() else { return }
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }
}

extension Publisher where Output: Equatable {
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates(by: ==)
    }
}
