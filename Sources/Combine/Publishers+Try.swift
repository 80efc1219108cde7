extension Publishers {
    /// Combine's `tryScan(_:_:)`: `scan` whose step may throw; an error ends the stream.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let initialResult: Output
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let result = Last<Output>()
            result.value = initialResult
            let next = nextPartialResult
            upstream.receive(subscriber: TryMapLink(downstream: subscriber) { value in
                let folded = try next(result.value!, value)
                result.value = folded
                return folded
            })
        }
    }

    /// Combine's `tryReduce(_:_:)`: `reduce` whose step may throw.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: initial) {
                (result: inout Output?, value: Upstream.Output) in
                result = try next(result!, value)
                return false
            })
        }
    }

    /// Combine's `tryFirst(where:)`, `tryLast(where:)`, `tryContains(where:)`,
    /// `tryAllSatisfy(_:)`, `tryMin(by:)` and `tryMax(by:)`: the folds whose predicate may
    /// throw; an error cancels the upstream and ends the stream.
    public struct TryFold<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        let start: Output?
        let step: (inout Output?, Upstream.Output) throws -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FoldLink(downstream: subscriber, start: start,
                                                  tryStep: step))
        }
    }

    /// Combine's `tryDrop(while:)`, `tryPrefix(while:)` and `tryRemoveDuplicates(by:)`: the
    /// cuts whose predicate may throw; an error cancels the upstream and ends the stream.
    public struct TryCut<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        /// Makes one subscription's filter: nil leaves a value out; `StreamEnds` finishes.
        let makeFilter: () -> (Output) throws -> Output?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TryMapLink(downstream: subscriber,
                                                    transform: makeFilter()))
        }
    }

    /// Combine's `tryCatch(_:)`: `catch` whose handler may throw; the thrown error ends the
    /// stream.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where NewPublisher.Output == Upstream.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let handler: (Upstream.Failure) throws -> NewPublisher

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            upstream.catch { failure -> AnyPublisher<Output, any Error> in
                do {
                    return try handler(failure).mapError { $0 as any Error }
                        .eraseToAnyPublisher()
                } catch {
                    return Fail(error: error).eraseToAnyPublisher()
                }
            }.receive(subscriber: subscriber)
        }
    }

    /// Combine's `assertNoFailure(_:file:line:)`: a failure stops the program, as Apple's
    /// does.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let upstream: Upstream
        public let prefix: String
        public let file: StaticString
        public let line: UInt

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let (prefix, file, line) = (self.prefix, self.file, self.line)
            upstream.receive(subscriber: FailureRelay(downstream: subscriber) { error in
                fatalError("\(prefix.isEmpty ? "" : prefix + ": ")\(error)",
                           file: file, line: line)
            })
        }
    }
}

extension Publisher {
    public func tryScan<T>(_ initialResult: T,
                           _ nextPartialResult: @escaping (T, Output) throws -> T)
        -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult,
                           nextPartialResult: nextPartialResult)
    }

    public func tryReduce<T>(_ initialResult: T,
                             _ nextPartialResult: @escaping (T, Output) throws -> T)
        -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult,
                             nextPartialResult: nextPartialResult)
    }

    public func tryFirst(where predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryFold<Self, Output> {
        Publishers.TryFold(upstream: self, start: nil) { first, value in
            guard try predicate(value) else { return false }
            first = value
            return true
        }
    }

    public func tryLast(where predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryFold<Self, Output> {
        Publishers.TryFold(upstream: self, start: nil) { last, value in
            if try predicate(value) { last = value }
            return false
        }
    }

    public func tryContains(where predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryFold<Self, Bool> {
        Publishers.TryFold(upstream: self, start: false) { found, value in
            found = try predicate(value)
            return found!
        }
    }

    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryFold<Self, Bool> {
        Publishers.TryFold(upstream: self, start: true) { satisfied, value in
            satisfied = try predicate(value)
            return !satisfied!
        }
    }

    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryFold<Self, Output> {
        Publishers.TryFold(upstream: self, start: nil) { kept, value in
            if let current = kept, try !areInIncreasingOrder(value, current) { return false }
            kept = value
            return false
        }
    }

    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryFold<Self, Output> {
        tryMin { try areInIncreasingOrder($1, $0) }
    }

    public func tryDrop(while predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryCut<Self> {
        Publishers.TryCut(upstream: self) {
            var dropping = true
            return { value in
                if dropping, try predicate(value) { return nil }
                dropping = false
                return value
            }
        }
    }

    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryCut<Self> {
        Publishers.TryCut(upstream: self) {
            { value in
                guard try predicate(value) else { throw StreamEnds() }
                return value
            }
        }
    }

    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryCut<Self> {
        Publishers.TryCut(upstream: self) {
            var last: Output?
            return { value in
                defer { last = value }
                guard let previous = last, try predicate(previous, value) else { return value }
                return nil
            }
        }
    }

    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P)
        -> Publishers.TryCatch<Self, P> where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }

    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file,
                                line: UInt = #line) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
