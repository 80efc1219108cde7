extension Publishers {
    /// Combine's `drop(untilOutputFrom:)`: the upstream's values are dropped until `other`
    /// sends one; its first value lets the rest through and cancels it, and its failure ends
    /// the stream.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let other: Other

        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            UntilOutputLink.attach(subscriber, to: upstream, until: other, drops: true) { $0 }
        }
    }

    /// Combine's `prefix(untilOutputFrom:)`: the upstream's values until `other` sends one,
    /// which finishes the stream and cancels both; `other` ending without a value changes
    /// nothing.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let other: Other

        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            UntilOutputLink.attach(subscriber, to: upstream, until: other, drops: false)
        }
    }
}

/// The other publisher's subscriber: it asks for one value and reports it, or a failure.
final class Trigger<Input, Failure: Error>: Subscriber, Cancellable {
    private var subscription: (any Subscription)?
    private var fire: (() -> Void)?
    private var fail: ((Failure) -> Void)?

    init(fire: @escaping () -> Void, fail: @escaping (Failure) -> Void) {
        self.fire = fire
        self.fail = fail
    }

    func receive(subscription: any Subscription) {
        guard fire != nil, self.subscription == nil else { return subscription.cancel() }
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let fire else { return .none }
        cancel()
        fire()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let fail = self.fail
        clear()
        if case .failure(let error) = completion { fail?(error) }
    }

    func cancel() {
        let subscription = self.subscription
        clear()
        subscription?.cancel()
    }

    private func clear() {
        subscription = nil
        fire = nil
        fail = nil
    }
}

/// The upstream's side of `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`. A dropped
/// value uses up the demand it was sent on, as Apple documents; the link's end cancels the
/// other publisher's subscription.
final class UntilOutputLink<Input, Failure: Error, Downstream: Subscriber>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == Input, Downstream.Failure == Failure {
    private let drops: Bool
    private var hasFired = false
    private var pendingEnd: Subscribers.Completion<Failure>?
    var trigger: (any Cancellable)?

    init(downstream: Downstream, drops: Bool) {
        self.drops = drops
        super.init(downstream: downstream)
    }

    /// Subscribes `downstream` to `upstream` cut by `other`, which is subscribed first (so a
    /// value it has at once counts before any of the upstream's); `failure` turns the other's
    /// failure into the stream's end, nil leaves it without effect.
    static func attach<Upstream: Publisher, Other: Publisher>(
        _ downstream: Downstream, to upstream: Upstream, until other: Other, drops: Bool,
        failure: ((Other.Failure) -> Failure)? = nil
    ) where Upstream.Output == Input, Upstream.Failure == Failure {
        let link = UntilOutputLink(downstream: downstream, drops: drops)
        let trigger = Trigger<Other.Output, Other.Failure>(
            fire: { [weak link] in link?.triggered() },
            fail: { [weak link] error in
                if let failure { link?.triggerFailed(failure(error)) }
            })
        link.trigger = trigger
        other.receive(subscriber: trigger)
        upstream.receive(subscriber: link)
    }

    override func receive(subscription: any Subscription) {
        super.receive(subscription: subscription)
        if let pendingEnd {
            self.pendingEnd = nil
            finishEarly(pendingEnd)
        }
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isEnded, pendingEnd == nil else { return .none }
        if drops && !hasFired {
            demand -= .max(1)
            return .none
        }
        return deliver(input)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        let completion = pendingEnd ?? completion
        pendingEnd = nil
        guard end() else { return }
        downstream.receive(completion: completion)
    }

    @discardableResult
    override func end() -> Bool {
        guard super.end() else { return false }
        let trigger = self.trigger
        self.trigger = nil
        trigger?.cancel()
        return true
    }

    /// The other publisher sent its first value.
    func triggered() {
        hasFired = true
        guard !drops else { return }
        end(with: .finished)
    }

    /// The other publisher failed (`drop(untilOutputFrom:)` only).
    func triggerFailed(_ error: Failure) {
        end(with: .failure(error))
    }

    /// Ends now, or, before the upstream subscribed (the other answered at once), as soon as
    /// it does, so the downstream still gets its subscription first (and no value).
    private func end(with completion: Subscribers.Completion<Failure>) {
        guard isSubscribed else {
            if !isEnded { pendingEnd = completion }
            return
        }
        finishEarly(completion)
    }
}

extension Publisher {
    public func drop<P: Publisher>(untilOutputFrom publisher: P)
        -> Publishers.DropUntilOutput<Self, P> where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    public func prefix<P: Publisher>(untilOutputFrom publisher: P)
        -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
