extension Publishers {
    /// When `buffer` asks its upstream for values: enough to keep the buffer full, or all.
    public enum PrefetchStrategy: Equatable, Sendable {
        case keepFull
        case byRequest
    }

    /// What `buffer` does with a value that finds the buffer full.
    public enum BufferingStrategy<Failure: Error> {
        case dropNewest
        case dropOldest
        case customError(() -> Failure)
    }

    /// Combine's `buffer(size:prefetch:whenFull:)`: values the downstream has not asked for
    /// wait, up to `size`. `.keepFull` asks the upstream for `size` values and one more for
    /// each sent on; `.byRequest` asks for every value. A full buffer drops the new value,
    /// drops the oldest, or fails the stream. A finish waits until what is buffered went out;
    /// a failure ends the stream at once.
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let size: Int
        public let prefetch: PrefetchStrategy
        public let whenFull: BufferingStrategy<Failure>

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: BufferLink(downstream: subscriber, size: size,
                                                    prefetch: prefetch, whenFull: whenFull))
        }
    }
}

/// One subscription of `buffer`.
final class BufferLink<Downstream: Subscriber>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    let size: Int
    let prefetch: Publishers.PrefetchStrategy
    let whenFull: Publishers.BufferingStrategy<Failure>
    private var upstream: (any Subscription)?
    private var values: [Input] = []
    private var demand = Subscribers.Demand.none
    private var finished = false
    private var isEnded = false
    private var draining = false

    init(downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
         whenFull: Publishers.BufferingStrategy<Failure>) {
        self.downstream = downstream
        self.size = Swift.max(1, size)
        self.prefetch = prefetch
        self.whenFull = whenFull
    }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !isEnded else { return subscription.cancel() }
        upstream = subscription
        downstream.receive(subscription: self)
        subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded, !finished else { return .none }
        if values.count >= size {
            switch whenFull {
            case .dropNewest: return .none
            case .dropOldest: values.removeFirst()
            case .customError(let error):
                fail(.failure(error()))
                return .none
            }
        }
        values.append(input)
        drain()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isEnded, !finished else { return }
        upstream = nil
        guard case .finished = completion else { return fail(completion) }
        finished = true
        drain()
    }

    func request(_ more: Subscribers.Demand) {
        guard !isEnded else { return }
        demand += more
        drain()
    }

    func cancel() {
        guard !isEnded else { return }
        isEnded = true
        values = []
        let subscription = upstream
        upstream = nil
        subscription?.cancel()
    }

    private func drain() {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        var sent = 0
        while !isEnded, demand > .none, !values.isEmpty {
            demand -= .max(1)
            sent += 1
            demand += downstream.receive(values.removeFirst())
        }
        if prefetch == .keepFull, sent > 0, !isEnded { upstream?.request(.max(sent)) }
        if finished, values.isEmpty, !isEnded {
            isEnded = true
            downstream.receive(completion: .finished)
        }
    }

    private func fail(_ completion: Subscribers.Completion<Failure>) {
        isEnded = true
        values = []
        let subscription = upstream
        upstream = nil
        subscription?.cancel()
        downstream.receive(completion: completion)
    }
}

extension Publisher {
    public func buffer(size: Int, prefetch: Publishers.PrefetchStrategy,
                       whenFull: Publishers.BufferingStrategy<Failure>)
        -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
