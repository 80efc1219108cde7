extension Publishers {
    /// Combine's `reduce(_:_:)`: every value folded into one result, sent when the stream
    /// finishes (the initial result, for an empty stream).
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: initial) {
                result, value in
                result = next(result!, value)
                return false
            })
        }
    }

    /// Combine's `count()`: how many values came, sent when the stream finishes.
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: 0) {
                (count: inout Int?, _: Upstream.Output) in
                count! += 1
                return false
            })
        }
    }

    /// Combine's `contains(where:)`: true at the first value that matches (the upstream is
    /// cancelled), false when the stream finishes without one.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Upstream.Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: false) {
                found, value in
                found = predicate(value)
                return found!
            })
        }
    }

    /// Combine's `allSatisfy(_:)`: false at the first value that does not satisfy (the
    /// upstream is cancelled), true when the stream finishes without one.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Upstream.Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: true) {
                satisfied, value in
                satisfied = predicate(value)
                return !satisfied!
            })
        }
    }

    /// Combine's `last()` and `last(where:)`: the last value that matches, sent when the
    /// stream finishes; nothing for a stream without one.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: nil) {
                last, value in
                if predicate(value) { last = value }
                return false
            })
        }
    }

    /// Combine's `min()`, `max()` and their `by:` forms: the value that comes first in the
    /// order (the earliest of equals), sent when the stream finishes.
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let areInIncreasingOrder: (Output, Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: nil) {
                kept, value in
                if let current = kept, !ordered(value, current) { return false }
                kept = value
                return false
            })
        }
    }
}

/// A subscription that folds every value into one result and sends it, when the stream
/// finishes or `step` decides early (the upstream is then cancelled), once the downstream
/// asks; a nil result sends nothing. An error `step` throws ends the stream (the `try` forms).
final class FoldLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream> {
    private var result: Downstream.Input?
    private let step: (inout Downstream.Input?, Input) throws -> Bool
    private let failure: (Failure) -> Downstream.Failure
    private let thrown: (any Error) -> Downstream.Failure
    private var decided = false

    init(downstream: Downstream, start: Downstream.Input?,
         failure: @escaping (Failure) -> Downstream.Failure,
         thrown: @escaping (any Error) -> Downstream.Failure,
         step: @escaping (inout Downstream.Input?, Input) throws -> Bool) {
        result = start
        self.step = step
        self.failure = failure
        self.thrown = thrown
        super.init(downstream: downstream, asksForEverything: true)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded, !decided else { return .none }
        do {
            guard try step(&result, input) else { return .none }
        } catch {
            finishEarly(.failure(thrown(error)))
            return .none
        }
        decided = true
        upstream?.cancel()
        send()
        return .none
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard !isEnded, !decided else { return }
        guard case .finished = completion else {
            end()
            if case .failure(let error) = completion {
                downstream.receive(completion: .failure(failure(error)))
            }
            return
        }
        decided = true
        send()
    }

    override func request(_ more: Subscribers.Demand) {
        super.request(more)
        if decided { send() }
    }

    private func send() {
        guard result == nil || demand > .none, end() else { return }
        if let result { _ = downstream.receive(result) }
        result = nil
        downstream.receive(completion: .finished)
    }
}

extension FoldLink where Downstream.Failure == Failure {
    /// A fold whose step cannot throw, keeping the upstream's failure type.
    convenience init(downstream: Downstream, start: Downstream.Input?,
                     step: @escaping (inout Downstream.Input?, Input) -> Bool) {
        self.init(downstream: downstream, start: start, failure: { $0 },
                  thrown: { preconditionFailure("a fold that cannot throw threw \($0)") },
                  step: step)
    }
}

extension FoldLink where Downstream.Failure == any Error {
    /// A fold whose step may throw: the stream's failure is any error.
    convenience init(downstream: Downstream, start: Downstream.Input?,
                     tryStep: @escaping (inout Downstream.Input?, Input) throws -> Bool) {
        self.init(downstream: downstream, start: start, failure: { $0 }, thrown: { $0 },
                  step: tryStep)
    }
}

extension Publisher {
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult,
                          nextPartialResult: nextPartialResult)
    }

    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }

    public func contains(where predicate: @escaping (Output) -> Bool)
        -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    public func allSatisfy(_ predicate: @escaping (Output) -> Bool)
        -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    public func last() -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self) { _ in true }
    }

    public func last(where predicate: @escaping (Output) -> Bool)
        -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
        -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
        -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }
}

extension Publisher where Output: Equatable {
    public func contains(_ output: Output) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self) { $0 == output }
    }
}

extension Publisher where Output: Comparable {
    public func min() -> Publishers.Comparison<Self> { min(by: <) }

    public func max() -> Publishers.Comparison<Self> { max(by: <) }
}
