extension Publishers {
    /// Combine's `setFailureType(to:)`.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
    where Upstream.Failure == Never {
        public typealias Output = Upstream.Output
        public let upstream: Upstream

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FailureRelay(downstream: subscriber,
                                                      mapFailure: neverFails))
        }
    }

    /// Combine's `mapError(_:)`.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let transform: (Upstream.Failure) -> Failure

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FailureRelay(downstream: subscriber,
                                                      mapFailure: transform))
        }
    }

    /// Combine's `tryMap(_:)`: a thrown error cancels the upstream and ends the stream with it.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let transform: (Upstream.Output) throws -> Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TryMapLink(downstream: subscriber, transform: transform))
        }
    }

    /// Combine's `tryCompactMap(_:)`: nil leaves a value out; a thrown error cancels the
    /// upstream and ends the stream with it.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let transform: (Upstream.Output) throws -> Output?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TryMapLink(downstream: subscriber, transform: transform))
        }
    }

    /// Combine's `tryFilter(_:)`: a thrown error cancels the upstream and ends the stream
    /// with it.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let isIncluded: (Upstream.Output) throws -> Bool

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let isIncluded = self.isIncluded
            upstream.receive(subscriber: TryMapLink(downstream: subscriber) { value in
                try isIncluded(value) ? value : nil
            })
        }
    }

    /// Combine's `replaceError(with:)`: a failure becomes the value, then the end.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let upstream: Upstream
        public let output: Output

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: ReplaceErrorLink(downstream: subscriber,
                                                          output: output))
        }
    }
}

/// The change of a failure that cannot happen (an upstream that never fails).
func neverFails<Failure: Error>(_ never: Never) -> Failure {}

/// Passes values on as they are and a failure changed into the downstream's.
struct FailureRelay<Input, Failure: Error, Downstream: Subscriber>: Subscriber
where Downstream.Input == Input {
    let downstream: Downstream
    let mapFailure: (Failure) -> Downstream.Failure
    /// It passes everything on: it is its downstream, as far as identity goes.
    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(mapFailure(error)))
        }
    }
}

final class TryMapLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream> where Downstream.Failure == any Error {
    /// What a value becomes; nil leaves it out.
    let transform: (Input) throws -> Downstream.Input?

    init(downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input?) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded else { return .none }
        do {
            guard let value = try transform(input) else { return .max(1) }
            return deliver(value)
        } catch is StreamEnds {
            finishEarly(.finished)
            return .none
        } catch {
            finishEarly(.failure(error))
            return .none
        }
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard end() else { return }
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(error))
        }
    }
}

/// Thrown by a `TryMapLink`'s transform to finish the stream there (`tryPrefix(while:)`).
struct StreamEnds: Error {}

/// `replaceError(with:)`: the value waits for demand when none is left at the failure.
final class ReplaceErrorLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == Input, Downstream.Failure == Never {
    let output: Input
    private var failed = false

    init(downstream: Downstream, output: Input) {
        self.output = output
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        isEnded ? .none : deliver(input)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard !isEnded else { return }
        guard case .failure = completion else {
            end()
            return downstream.receive(completion: .finished)
        }
        failed = true
        if demand > .none { replace() }
    }

    override func request(_ more: Subscribers.Demand) {
        super.request(more)
        if failed, demand > .none { replace() }
    }

    private func replace() {
        guard end() else { return }
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }
}

extension Publisher where Failure == Never {
    public func setFailureType<E: Error>(to failureType: E.Type)
        -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publisher {
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E)
        -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }

    public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
        -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }

    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?)
        -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }

    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
        -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }

    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
