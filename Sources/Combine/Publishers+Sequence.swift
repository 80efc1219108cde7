extension Publishers {
    /// Combine's `Sequence.publisher`: the elements, as the subscriber asks for them, then the
    /// end.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element
        public let sequence: Elements

        public init(sequence: Elements) {
            self.sequence = sequence
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let source = SequenceSource(subscriber, sequence.makeIterator())
            subscriber.receive(subscription: source)
            source.finishIfEmpty()
        }
    }
}

/// One subscription of a sequence's publisher: the iterator, advanced as demand comes.
final class SequenceSource<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription
where Downstream.Input == Iterator.Element {
    private var downstream: Downstream?
    private var iterator: Iterator
    private var next: Iterator.Element?
    private var demand = Subscribers.Demand.none
    private var sending = false

    init(_ downstream: Downstream, _ iterator: Iterator) {
        self.downstream = downstream
        self.iterator = iterator
        next = self.iterator.next()
    }

    /// An empty sequence ends at once, asked or not.
    func finishIfEmpty() {
        guard next == nil, let downstream else { return }
        self.downstream = nil
        downstream.receive(completion: .finished)
    }

    func request(_ more: Subscribers.Demand) {
        demand += more
        // A request made from inside `receive` is served by the loop already running.
        guard !sending else { return }
        sending = true
        defer { sending = false }
        while demand > .none, let value = next, let downstream {
            demand -= .max(1)
            next = iterator.next()
            demand += downstream.receive(value)
        }
        finishIfEmpty()
    }

    func cancel() {
        downstream = nil
    }
}

extension Sequence {
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// Combine's `share()`: one subscription to the upstream, made when the first subscriber
    /// comes, whose values every subscriber attached then receives.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public final let upstream: Upstream
        private let fanOut = FanOut<Output, Failure>()
        private var connection: AnyCancellable?

        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            fanOut.attach(subscriber)
            guard connection == nil else { return }
            let sink = Subscribers.Sink<Output, Failure>(
                receiveCompletion: { [fanOut] in fanOut.finish($0) },
                receiveValue: { [fanOut] in fanOut.send($0) })
            connection = AnyCancellable(sink)
            upstream.receive(subscriber: sink)
        }

        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}

extension Publisher {
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }

    /// Combine's `replaceNil(with:)`.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }

    /// Combine's `ignoreOutput()`: only the end.
    public func ignoreOutput() -> Publishers.CompactMap<Self, Never> {
        compactMap { _ in nil }
    }
}
