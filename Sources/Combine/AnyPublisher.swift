/// Combine's `AnyPublisher`: a publisher with its type erased.
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    private let attach: (Relay<Output, AnySubscriber<Output, Failure>>) -> Void

    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        attach = { publisher.receive(subscriber: $0) }
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        attach(Relay(downstream: AnySubscriber(subscriber)) { $0 })
    }
}

/// Combine's `AnySubscriber`: a subscriber with its type erased, or made of closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber {
    private let subscription: (any Subscription) -> Void
    private let value: (Input) -> Subscribers.Demand
    private let completion: (Subscribers.Completion<Failure>) -> Void
    public let combineIdentifier: CombineIdentifier

    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        subscription = subscriber.receive(subscription:)
        value = subscriber.receive(_:)
        completion = subscriber.receive(completion:)
        combineIdentifier = subscriber.combineIdentifier
    }

    /// A subject as a subscriber: it asks for every value and sends on what it receives.
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        subscription = { subject.send(subscription: $0) }
        value = {
            subject.send($0)
            return .none
        }
        completion = { subject.send(completion: $0) }
        combineIdentifier = CombineIdentifier()
    }

    /// A subscriber of closures; a missing one does nothing (and a missing value closure asks
    /// for no more).
    public init(receiveSubscription: ((any Subscription) -> Void)? = nil,
                receiveValue: ((Input) -> Subscribers.Demand)? = nil,
                receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil) {
        subscription = receiveSubscription ?? { _ in }
        value = receiveValue ?? { _ in .none }
        completion = receiveCompletion ?? { _ in }
        combineIdentifier = CombineIdentifier()
    }

    public func receive(subscription: any Subscription) { self.subscription(subscription) }
    public func receive(_ input: Input) -> Subscribers.Demand { value(input) }

    public func receive(completion: Subscribers.Completion<Failure>) {
        self.completion(completion)
    }
}

extension Publisher {
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

/// Combine's `Just`: one value, then the end.
public struct Just<Output>: Publisher {
    public typealias Failure = Never
    public let output: Output

    public init(_ output: Output) {
        self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        FanOut.end(subscriber, value: output, with: .finished)
    }
}
