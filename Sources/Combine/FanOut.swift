/// The subscribers of one subject, in the order they attached, each with what it still
/// wants; a completion ends every subscription and refuses later ones with it.
final class FanOut<Output, Failure: Error> {
    final class Link: Subscription, CustomStringConvertible {
        weak var owner: FanOut?
        var demand = Subscribers.Demand.none
        let deliver: (Output) -> Subscribers.Demand
        let complete: (Subscribers.Completion<Failure>) -> Void
        /// A value for a subscriber that has not asked yet (a current value).
        var pending: Output?
        var name = ""

        init<S: Subscriber>(_ subscriber: S, owner: FanOut)
        where S.Input == Output, S.Failure == Failure {
            self.owner = owner
            deliver = subscriber.receive(_:)
            complete = subscriber.receive(completion:)
        }

        func request(_ more: Subscribers.Demand) {
            demand += more
            if let value = pending, demand > .none {
                pending = nil
                offer(value)
            }
        }

        func offer(_ value: Output) {
            guard demand > .none else { return }
            demand -= .max(1)
            demand += deliver(value)
        }

        func cancel() {
            owner?.links.removeAll { $0 === self }
            owner = nil
        }

        var description: String { name }
    }

    /// What `print()` calls a subscription of this fan-out: the publisher that owns it.
    var name = "Subscription"

    private(set) var links: [Link] = []
    private var completion: Subscribers.Completion<Failure>?

    func attach<S: Subscriber>(_ subscriber: S, current: Output? = nil)
    where S.Input == Output, S.Failure == Failure {
        let link = Link(subscriber, owner: self)
        link.name = name
        if let completion {
            subscriber.receive(subscription: link)
            return subscriber.receive(completion: completion)
        }
        link.pending = current
        links.append(link)
        subscriber.receive(subscription: link)
    }

    func send(_ value: Output) {
        guard completion == nil else { return }
        for link in links { link.offer(value) }
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard self.completion == nil else { return }
        self.completion = completion
        let ended = links
        links = []
        for link in ended {
            link.owner = nil
            link.complete(completion)
        }
    }

    /// Gives one subscriber a fixed end: `value`, if any, when it asks, then `completion`
    /// (`Just`, `Empty`, `Fail`, a fulfilled `Future`).
    static func end<S: Subscriber>(_ subscriber: S, value: Output? = nil,
                                   with completion: Subscribers.Completion<Failure>,
                                   name: String = "Just")
    where S.Input == Output, S.Failure == Failure {
        let once = FanOut()
        guard let value else {
            once.finish(completion)
            return once.attach(subscriber)
        }
        once.name = name
        once.attach(subscriber, current: value)
        once.finish(completion)
    }
}
