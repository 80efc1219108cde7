/// What the operators that keep state per subscription share: the upstream's subscription,
/// the downstream's demand counted here, and the end (a completion or a cancel) kept once. The
/// demand is passed up as it comes, or, for an operator that `asksForEverything` (the time
/// operators, `collect`), the upstream is asked for every value at once. A subclass overrides
/// the three `receive` methods it changes.
class ForwardingLink<Input, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription {
    let downstream: Downstream
    private(set) var upstream: (any Subscription)?
    private(set) var isEnded = false
    /// What the downstream asked for and has not received yet.
    var demand = Subscribers.Demand.none
    let asksForEverything: Bool

    init(downstream: Downstream, asksForEverything: Bool = false) {
        self.downstream = downstream
        self.asksForEverything = asksForEverything
    }

    var isSubscribed: Bool { upstream != nil && !isEnded }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !isEnded else { return subscription.cancel() }
        upstream = subscription
        downstream.receive(subscription: self)
        if asksForEverything { subscription.request(.unlimited) }
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}

    func request(_ more: Subscribers.Demand) {
        guard !isEnded else { return }
        demand += more
        if !asksForEverything { upstream?.request(more) }
    }

    func cancel() {
        let subscription = upstream
        guard end() else { return }
        subscription?.cancel()
    }

    /// Marks the end; false when it had ended already.
    @discardableResult
    func end() -> Bool {
        guard !isEnded else { return false }
        isEnded = true
        upstream = nil
        return true
    }

    /// Hands a value down, counting it against the demand; returns what the downstream asks
    /// for on top, for the caller to return to the upstream.
    func deliver(_ value: Downstream.Input) -> Subscribers.Demand {
        demand -= .max(1)
        let more = downstream.receive(value)
        demand += more
        return more
    }

    /// Hands a value down if the downstream wants one; one nobody wants is dropped (an
    /// operator that asked the upstream for everything).
    func offer(_ value: Downstream.Input) {
        guard demand > .none else { return }
        _ = deliver(value)
    }

    /// Ends the downstream and cancels the upstream (an operator that finishes early).
    func finishEarly(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscription = upstream
        guard end() else { return }
        subscription?.cancel()
        downstream.receive(completion: completion)
    }
}
