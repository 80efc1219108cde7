extension Publishers {
    /// Combine's `multicast(_:)` and `multicast(subject:)`: subscribers attach to one subject,
    /// which `connect()` subscribes to the upstream; values sent before the connection are
    /// not there to receive.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public final let upstream: Upstream
        public final let createSubject: () -> SubjectType
        private var made: SubjectType?

        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        private var subject: SubjectType {
            if let made { return made }
            let subject = createSubject()
            made = subject
            return subject
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            subject.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }

    /// Combine's `makeConnectable()`: the upstream's values go to the subscribers attached
    /// once `connect()` is called.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable { inner.connect() }
    }
}

/// `subscribe(_:)` with a subject: the upstream's events sent into the subject.
final class SubjectFeed<Target: Subject>: Subscriber, Cancellable {
    typealias Input = Target.Output
    typealias Failure = Target.Failure
    private var subject: Target?
    private var upstream: (any Subscription)?

    init(_ subject: Target) {
        self.subject = subject
    }

    func receive(subscription: any Subscription) {
        guard upstream == nil, let subject else { return subscription.cancel() }
        upstream = subscription
        subject.send(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        subject?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let subject = self.subject
        self.subject = nil
        upstream = nil
        subject?.send(completion: completion)
    }

    func cancel() {
        let subscription = upstream
        upstream = nil
        subject = nil
        subscription?.cancel()
    }
}

extension Publisher {
    public func subscribe<S: Subscriber>(_ subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }

    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let feed = SubjectFeed(subject)
        receive(subscriber: feed)
        return AnyCancellable(feed)
    }

    public func multicast<S: Subject>(_ createSubject: @escaping () -> S)
        -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }
}

extension Publisher where Failure == Never {
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
