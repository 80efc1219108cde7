extension Publishers {
    /// Combine's `merge(with:)`: the values of both, in the order they come.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            FanIn.join(a, b, into: subscriber, first: { $0 }, second: { $0 })
        }
    }

    /// Combine's `combineLatest(_:)`: once both have sent, each new value with the other's
    /// latest.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let latestA = Last<A.Output>()
            let latestB = Last<B.Output>()
            FanIn.join(a, b, into: subscriber, first: { value in
                latestA.value = value
                return latestB.value.map { (value, $0) }
            }, second: { value in
                latestB.value = value
                return latestA.value.map { ($0, value) }
            })
        }
    }
}

extension Publishers {
    /// Combine's `merge(with:_:)`: the values of three, in the order they come.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, B.Output == C.Output,
          A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C

        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            Merge(Merge(a, b), c).receive(subscriber: subscriber)
        }
    }

    /// Combine's `combineLatest(_:_:)`: once all three have sent, each new value with the
    /// others' latest.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C

        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            CombineLatest(CombineLatest(a, b), c).map { pair, third in (pair.0, pair.1, third) }
                .receive(subscriber: subscriber)
        }
    }
}

extension Publishers {
    /// Combine's `merge(with:_:_:)`: the values of four, in the order they come.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Output == B.Output, B.Output == C.Output, C.Output == D.Output,
          A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D

        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            (self.a, self.b, self.c, self.d) = (a, b, c, d)
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            Merge(Merge3(a, b, c), d).receive(subscriber: subscriber)
        }
    }

    /// Combine's `combineLatest(_:_:_:)`: once all four have sent, each new value with the
    /// others' latest.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>:
        Publisher where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D

        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            (self.a, self.b, self.c, self.d) = (a, b, c, d)
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            CombineLatest(CombineLatest3(a, b, c), d)
                .map { three, fourth in (three.0, three.1, three.2, fourth) }
                .receive(subscriber: subscriber)
        }
    }
}

extension Publisher {
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D)
        -> Publishers.Merge4<Self, B, C, D>
    where B.Output == Output, C.Output == Output, D.Output == Output,
          B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.Merge4(self, b, c, d)
    }

    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C)
        -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, C.Output == Output, B.Failure == Failure, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    public func combineLatest<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q)
        -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }
}

extension FanIn {
    /// Subscribes `downstream` to two upstreams joined by what each value becomes.
    static func join<A: Publisher, B: Publisher>(
        _ a: A, _ b: B, into downstream: Downstream,
        first: @escaping (A.Output) -> Output?, second: @escaping (B.Output) -> Output?,
        isExhausted: (([Bool]) -> Bool)? = nil
    ) where A.Failure == Failure, B.Failure == Failure {
        let fanIn = FanIn(downstream: downstream)
        fanIn.isExhausted = isExhausted
        let firstSource = fanIn.source(first)
        let secondSource = fanIn.source(second)
        downstream.receive(subscription: fanIn)
        a.receive(subscriber: firstSource)
        b.receive(subscriber: secondSource)
    }
}

extension Publishers {
    /// Combine's `MergeMany`: the values of all, in the order they come.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let publishers: [Upstream]

        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let fanIn = FanIn<Output, Failure, S>(downstream: subscriber, moreToCome: true)
            let sources = publishers.map { _ in fanIn.source { (value: Output) in value } }
            subscriber.receive(subscription: fanIn)
            for (publisher, source) in Swift.zip(publishers, sources) {
                publisher.receive(subscriber: source)
            }
            // Every source is in: the stream can end once they have (at once, for none).
            fanIn.noMoreSources(.finished)
        }
    }
}

extension Publisher {
    public func merge(with other: Self...) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany([self] + other)
    }
}
