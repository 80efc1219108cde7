extension Publishers {
    /// Combine's `handleEvents(…)`: calls the closures given as each event passes, and
    /// changes nothing.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public var receiveSubscription: ((any Subscription) -> Void)?
        public var receiveOutput: ((Output) -> Void)?
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        public var receiveCancel: (() -> Void)?
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: HandleEventsLink(downstream: subscriber, events: self))
        }
    }
}

final class HandleEventsLink<Upstream: Publisher, Downstream: Subscriber>:
    ForwardingLink<Upstream.Output, Upstream.Failure, Downstream>
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    let events: Publishers.HandleEvents<Upstream>

    init(downstream: Downstream, events: Publishers.HandleEvents<Upstream>) {
        self.events = events
        super.init(downstream: downstream)
    }

    override func receive(subscription: any Subscription) {
        events.receiveSubscription?(subscription)
        super.receive(subscription: subscription)
    }

    override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        events.receiveOutput?(input)
        return isEnded ? .none : deliver(input)
    }

    override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        events.receiveCompletion?(completion)
        guard end() else { return }
        downstream.receive(completion: completion)
    }

    override func request(_ more: Subscribers.Demand) {
        events.receiveRequest?(more)
        super.request(more)
    }

    override func cancel() {
        events.receiveCancel?()
        super.cancel()
    }
}

extension Publisher {
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(upstream: self, receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput, receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}
