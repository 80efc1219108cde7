/// What the time operators share for one subscription: the upstream asked for every value,
/// the downstream's demand counted here, and the end (a completion or a cancel) kept once.
class TimedLink<Downstream: Subscriber>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    private var upstream: (any Subscription)?
    private var isEnded = false
    /// What the downstream still wants.
    var demand = Subscribers.Demand.none

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var isSubscribed: Bool { upstream != nil && !isEnded }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !isEnded else { return subscription.cancel() }
        upstream = subscription
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}

    func request(_ more: Subscribers.Demand) {
        demand += more
    }

    func cancel() {
        let subscription = upstream
        guard end() else { return }
        subscription?.cancel()
    }

    /// Marks the end; false when it had ended already.
    func end() -> Bool {
        guard !isEnded else { return false }
        isEnded = true
        upstream = nil
        return true
    }

    /// Hands a value down if the downstream wants one; a value nobody wants is dropped.
    func deliver(_ value: Input) {
        guard demand > .none else { return }
        demand -= .max(1)
        demand += downstream.receive(value)
    }
}
