/// A subscriber between an operator's upstream and its downstream: each value is changed, or
/// dropped (nil), and a dropped one is asked for again, so the downstream's demand holds.
struct Relay<Input, Downstream: Subscriber>: Subscriber {
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    let transform: (Input) -> Downstream.Input?

    /// A relay passes everything on: it is its downstream, as far as identity goes.
    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let output = transform(input) else { return .max(1) }
        return downstream.receive(output)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}
