extension Publishers {
    /// Combine's `catch(_:)`: a failure is replaced by the publisher the handler makes, which
    /// the downstream then receives from, with the demand it had left.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where NewPublisher.Output == Upstream.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure
        public let upstream: Upstream
        public let handler: (Upstream.Failure) -> NewPublisher

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CatchLink(downstream: subscriber, handler: handler))
        }
    }
}

final class CatchLink<Input, Failure: Error, NewPublisher: Publisher, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == Input, NewPublisher.Output == Input,
      Downstream.Failure == NewPublisher.Failure {
    let handler: (Failure) -> NewPublisher
    /// The replacement's subscription, once the upstream failed.
    private var replacement: (any Subscription)?
    private var caught = false

    init(downstream: Downstream, handler: @escaping (Failure) -> NewPublisher) {
        self.handler = handler
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        isEnded ? .none : deliver(input)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard !isEnded, !caught else { return }
        switch completion {
        case .finished:
            end()
            downstream.receive(completion: .finished)
        case .failure(let error):
            caught = true
            handler(error).receive(subscriber: CatchReplacement(link: self))
        }
    }

    func replaced(by subscription: any Subscription) {
        guard !isEnded, replacement == nil else { return subscription.cancel() }
        replacement = subscription
        if demand > .none { subscription.request(demand) }
    }

    func replacementSent(_ value: Input) -> Subscribers.Demand {
        isEnded ? .none : deliver(value)
    }

    func replacementEnded(_ completion: Subscribers.Completion<NewPublisher.Failure>) {
        replacement = nil
        guard end() else { return }
        downstream.receive(completion: completion)
    }

    override func request(_ more: Subscribers.Demand) {
        guard caught else { return super.request(more) }
        guard !isEnded else { return }
        demand += more
        replacement?.request(more)
    }

    override func cancel() {
        let replacement = self.replacement
        self.replacement = nil
        super.cancel()
        replacement?.cancel()
    }
}

/// The subscriber to the handler's publisher, reporting to the `catch` subscription.
struct CatchReplacement<Input, Failure: Error, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscriber
where Downstream.Input == Input, NewPublisher.Output == Input,
      Downstream.Failure == NewPublisher.Failure {
    let link: CatchLink<Input, Failure, NewPublisher, Downstream>
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { link.replaced(by: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { link.replacementSent(input) }

    func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
        link.replacementEnded(completion)
    }
}

extension Publisher {
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P)
        -> Publishers.Catch<Self, P> where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}
