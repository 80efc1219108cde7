extension Publishers {
    /// Combine's `map(_:)` of a key path: each value's property.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let keyPath: KeyPath<Upstream.Output, Output>

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.receive(subscriber: Relay(downstream: subscriber) { $0[keyPath: keyPath] })
        }
    }

    /// Combine's `map(_:_:)` of two key paths: each value's two properties.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        public typealias Output = (Output0, Output1)
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let (first, second) = (keyPath0, keyPath1)
            upstream.receive(subscriber: Relay(downstream: subscriber) {
                ($0[keyPath: first], $0[keyPath: second])
            })
        }
    }

    /// Combine's `map(_:_:_:)` of three key paths: each value's three properties.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        public typealias Output = (Output0, Output1, Output2)
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let (first, second, third) = (keyPath0, keyPath1, keyPath2)
            upstream.receive(subscriber: Relay(downstream: subscriber) {
                ($0[keyPath: first], $0[keyPath: second], $0[keyPath: third])
            })
        }
    }
}

extension Publisher {
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>)
        -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    public func map<T0, T1, T2>(_ keyPath0: KeyPath<Output, T0>,
                                _ keyPath1: KeyPath<Output, T1>,
                                _ keyPath2: KeyPath<Output, T2>)
        -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1,
                               keyPath2: keyPath2)
    }
}
