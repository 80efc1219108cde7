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

extension Publisher where Output: Equatable {
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates(by: ==)
    }
}
