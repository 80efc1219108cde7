extension Publishers {
    /// Combine's `zip(_:)`: the first values of both as a pair, then the second, and so on;
    /// the stream finishes once either has finished with nothing of it left to pair.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
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
            let queues = ZipQueues<A.Output, B.Output>()
            FanIn.join(a, b, into: subscriber, first: { value in
                queues.first.append(value)
                return queues.pair()
            }, second: { value in
                queues.second.append(value)
                return queues.pair()
            }, isExhausted: { finished in
                finished[0] && queues.first.isEmpty || finished[1] && queues.second.isEmpty
            })
        }
    }

    /// Combine's `zip(_:_:)`: the values of three publishers in threes.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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
            Zip(Zip(a, b), c).map { pair, third in (pair.0, pair.1, third) }
                .receive(subscriber: subscriber)
        }
    }
}

extension Publishers {
    /// Combine's `zip(_:_:_:)`: the values of four publishers in fours.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
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
            Zip(Zip3(a, b, c), d).map { three, fourth in (three.0, three.1, three.2, fourth) }
                .receive(subscriber: subscriber)
        }
    }
}

/// The values of a zip's two sides that wait for a partner, oldest first.
final class ZipQueues<First, Second> {
    var first: [First] = []
    var second: [Second] = []

    func pair() -> (First, Second)? {
        guard !first.isEmpty, !second.isEmpty else { return nil }
        return (first.removeFirst(), second.removeFirst())
    }
}

extension Publisher {
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P>
    where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    public func zip<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T)
        -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        Publishers.Zip(self, other).map(transform)
    }

    public func zip<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q)
        -> Publishers.Zip3<Self, P, Q> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    public func zip<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.Zip4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }
}
