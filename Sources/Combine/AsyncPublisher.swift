extension Publisher where Failure == Never {
    /// Combine's `values`: the publisher's values as an async sequence, one asked for at a
    /// time (on a device, its task waits in the device's order).
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
    /// Combine's `values` for a publisher that can fail: the failure is thrown.
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// Combine's `AsyncPublisher`.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    public typealias Element = P.Output
    let publisher: P

    public init(_ publisher: P) {
        self.publisher = publisher
    }

    public struct Iterator: AsyncIteratorProtocol {
        let pull: ValuePull<P.Output, Never>

        public mutating func next() async -> P.Output? {
            try? await pull.next()
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(pull: ValuePull(publisher))
    }
}

/// Combine's `AsyncThrowingPublisher`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output
    let publisher: P

    public init(_ publisher: P) {
        self.publisher = publisher
    }

    public struct Iterator: AsyncIteratorProtocol {
        let pull: ValuePull<P.Output, P.Failure>

        public mutating func next() async throws -> P.Output? {
            try await pull.next()
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(pull: ValuePull(publisher))
    }
}

/// The subscriber behind `values`: it asks for one value each time the iterator waits.
final class ValuePull<Output, Failure: Error>: Subscriber, @unchecked Sendable {
    // `@unchecked`: used by the one task that iterates, on its device's executor.
    typealias Input = Output
    /// A value handed to the waiting task (which runs on the same executor as the sender).
    struct Handed: @unchecked Sendable { let value: Output }
    private var subscription: (any Subscription)?
    private var ended: Subscribers.Completion<Failure>?
    private var arrived: [Output] = []
    private var waiter: UnsafeContinuation<Handed?, any Error>?

    init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        publisher.receive(subscriber: self)
    }

    deinit { subscription?.cancel() }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: Handed(value: input))
        } else {
            arrived.append(input)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        ended = completion
        subscription = nil
        guard let waiter else { return }
        self.waiter = nil
        resumeEnded(waiter)
    }

    func next() async throws -> Output? {
        if !arrived.isEmpty { return arrived.removeFirst() }
        if ended != nil {
            return try await withUnsafeThrowingContinuation { resumeEnded($0) }?.value
        }
        let handed = try await withUnsafeThrowingContinuation { continuation in
            waiter = continuation
            subscription?.request(.max(1))
        }
        return handed?.value
    }

    private func resumeEnded(_ continuation: UnsafeContinuation<Handed?, any Error>) {
        if case .failure(let error)? = ended {
            ended = .finished
            continuation.resume(throwing: error)
        } else {
            continuation.resume(returning: nil)
        }
    }
}
