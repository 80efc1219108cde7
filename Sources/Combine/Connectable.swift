/// Combine's `ConnectablePublisher`: it starts producing when connected.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    func connect() -> any Cancellable
}

extension ConnectablePublisher {
    /// Connects when the first subscriber comes; the connection ends when the last one
    /// cancels.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// Combine's `autoconnect()`.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public final let upstream: Upstream
        private var connection: (any Cancellable)?
        private var subscribers = 0

        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            subscribers += 1
            // Each subscription holds the publisher until it ends, so the last can disconnect.
            upstream.receive(subscriber: AutoconnectLink(downstream: subscriber) { self.left() })
            if connection == nil { connection = upstream.connect() }
        }

        private func left() {
            subscribers -= 1
            guard subscribers == 0 else { return }
            let connection = self.connection
            self.connection = nil
            connection?.cancel()
        }
    }
}

/// A subscriber of `autoconnect()`, which tells the publisher when it cancels.
final class AutoconnectLink<Downstream: Subscriber>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    private var upstream: (any Subscription)?
    private var onCancel: (() -> Void)?

    init(downstream: Downstream, onCancel: @escaping () -> Void) {
        self.downstream = downstream
        self.onCancel = onCancel
    }

    func receive(subscription: any Subscription) {
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    func receive(completion: Subscribers.Completion<Failure>) {
        upstream = nil
        onCancel = nil
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }

    func cancel() {
        let upstream = self.upstream
        let onCancel = self.onCancel
        self.upstream = nil
        self.onCancel = nil
        upstream?.cancel()
        onCancel?()
    }
}
