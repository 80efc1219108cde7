/// One downstream fed by several upstreams (`merge`, `combineLatest`, `flatMap`): each
/// upstream is asked for everything, values wait here until the downstream wants them, the
/// first failure ends all, and the stream finishes once every upstream (and, for `flatMap`,
/// the outer one) has finished and nothing waits.
final class FanIn<Output, Failure: Error, Downstream: Subscriber>: Subscription
where Downstream.Input == Output, Downstream.Failure == Failure {
    let downstream: Downstream
    private var sources: [(any Subscription)?] = []
    private var waiting: [Output] = []
    private var demand = Subscribers.Demand.none
    private var open = 0
    /// Whether more sources may still come (`flatMap`'s outer upstream has not finished).
    private var moreToCome: Bool
    private var isEnded = false
    private var delivering = false
    /// Which sources have finished, in the order they were made.
    private var finished: [Bool] = []
    /// Whether the stream can end before every source has (`zip`: a finished source with
    /// nothing left waiting), asked with `finished`.
    var isExhausted: (([Bool]) -> Bool)?

    init(downstream: Downstream, moreToCome: Bool = false) {
        self.downstream = downstream
        self.moreToCome = moreToCome
    }

    /// A subscriber for one more upstream; `change` turns its value into what goes down, or
    /// nil for nothing.
    func source<Input>(_ change: @escaping (Input) -> Output?)
        -> FanInSource<Input, Output, Failure, Downstream> {
        sources.append(nil)
        finished.append(false)
        open += 1
        return FanInSource(fanIn: self, index: sources.count - 1, change: change)
    }

    func attached(_ subscription: any Subscription, at index: Int) {
        guard !isEnded, sources[index] == nil else { return subscription.cancel() }
        sources[index] = subscription
        subscription.request(.unlimited)
    }

    func offer(_ value: Output) {
        guard !isEnded else { return }
        waiting.append(value)
        drain()
    }

    func sourceFinished(_ completion: Subscribers.Completion<Failure>, at index: Int) {
        guard !isEnded else { return }
        sources[index] = nil
        if case .failure = completion { return end(with: completion) }
        open -= 1
        finished[index] = true
        drain()
    }

    /// `flatMap`'s outer upstream finished: no source comes after the open ones.
    func noMoreSources(_ completion: Subscribers.Completion<Failure>) {
        guard !isEnded else { return }
        if case .failure = completion { return end(with: completion) }
        moreToCome = false
        drain()
    }

    func request(_ more: Subscribers.Demand) {
        guard !isEnded else { return }
        demand += more
        drain()
    }

    func cancel() {
        guard !isEnded else { return }
        isEnded = true
        cancelSources()
    }

    private func drain() {
        // A value the downstream sends on from inside its `receive` waits its turn here.
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while !isEnded, demand > .none, !waiting.isEmpty {
            demand -= .max(1)
            demand += downstream.receive(waiting.removeFirst())
        }
        guard !isEnded, waiting.isEmpty else { return }
        if open == 0 && !moreToCome || isExhausted?(finished) == true { end(with: .finished) }
    }

    private func end(with completion: Subscribers.Completion<Failure>) {
        isEnded = true
        waiting = []
        cancelSources()
        downstream.receive(completion: completion)
    }

    private func cancelSources() {
        let open = sources
        sources = []
        for source in open { source?.cancel() }
    }
}

/// The subscriber to one upstream of a `FanIn`, at `index` among its sources.
struct FanInSource<Input, Output, Failure: Error, Downstream: Subscriber>: Subscriber
where Downstream.Input == Output, Downstream.Failure == Failure {
    let fanIn: FanIn<Output, Failure, Downstream>
    let index: Int
    let change: (Input) -> Output?
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { fanIn.attached(subscription, at: index) }

    func receive(_ input: Input) -> Subscribers.Demand {
        if let value = change(input) { fanIn.offer(value) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        fanIn.sourceFinished(completion, at: index)
    }
}
