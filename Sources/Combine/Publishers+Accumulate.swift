extension Publishers {
    /// Combine's `scan(_:_:)`: each value folded into the result so far, which is sent.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let initialResult: Output
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let result = Last<Output>()
            result.value = initialResult
            let next = nextPartialResult
            upstream.receive(subscriber: Relay(downstream: subscriber) { value in
                let folded = next(result.value!, value)
                result.value = folded
                return folded
            })
        }
    }

    /// Combine's `collect()`: every value, sent as one array when the stream finishes.
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectLink(downstream: subscriber))
        }
    }
}

final class CollectLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == [Input], Downstream.Failure == Failure {
    private var values: [Input] = []

    // The downstream's demand is for the one array: the values themselves are all taken.
    init(downstream: Downstream) {
        super.init(downstream: downstream, asksForEverything: true)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        if !isEnded { values.append(input) }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard end() else { return }
        if case .finished = completion { _ = downstream.receive(values) }
        values = []
        downstream.receive(completion: completion)
    }
}

extension Publisher {
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult,
                        nextPartialResult: nextPartialResult)
    }

    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
