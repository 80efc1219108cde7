extension Publishers {
    /// How `collect(_:options:)` groups values in time: every `stride`, or also as soon as
    /// `count` values have come.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        case byTime(Context, Context.SchedulerTimeType.Stride)
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// Combine's `collect(_:options:)` with a time strategy: the values that came in each
    /// interval, sent as one array at its end (an interval without values sends nothing); the
    /// values left are sent when the stream finishes. On a device the intervals are simulated
    /// time, and they keep running, through a `settle` too, until the subscription ends.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let strategy: TimeGroupingStrategy<Context>
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByTimeLink(downstream: subscriber,
                strategy: strategy, options: options))
        }
    }
}

/// One subscription of a timed `collect`: the values of the running interval and its timer.
final class CollectByTimeLink<Input, Failure: Error, Downstream: Subscriber, Context: Scheduler>:
    ForwardingLink<Input, Failure, Downstream>
where Downstream.Input == [Input], Downstream.Failure == Failure {
    let scheduler: Context
    let stride: Context.SchedulerTimeType.Stride
    /// The count that sends a group before its interval ends; nil for time only.
    let count: Int?
    let options: Context.SchedulerOptions?
    private var values: [Input] = []
    private var timer: (any Cancellable)?

    init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>,
         options: Context.SchedulerOptions?) {
        switch strategy {
        case .byTime(let scheduler, let stride):
            (self.scheduler, self.stride, count) = (scheduler, stride, nil)
        case .byTimeOrCount(let scheduler, let stride, let count):
            (self.scheduler, self.stride, self.count) = (scheduler, stride, Swift.max(1, count))
        }
        self.options = options
        super.init(downstream: downstream, asksForEverything: true)
    }

    override func receive(subscription: any Subscription) {
        super.receive(subscription: subscription)
        if isSubscribed { startTimer() }
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard isSubscribed else { return .none }
        values.append(input)
        if let count, values.count >= count {
            // A group sent by count starts a new interval, as Apple's does.
            startTimer()
            send()
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard end() else { return }
        stopTimer()
        if case .finished = completion, !values.isEmpty { _ = downstream.receive(values) }
        values = []
        downstream.receive(completion: completion)
    }

    override func cancel() {
        stopTimer()
        values = []
        super.cancel()
    }

    /// Sends the group when the downstream wants one; otherwise it keeps growing.
    private func send() {
        guard isSubscribed, !values.isEmpty, demand > .none else { return }
        let group = values
        values = []
        _ = deliver(group)
    }

    private func startTimer() {
        stopTimer()
        timer = scheduler.schedule(after: scheduler.now.advanced(by: stride), interval: stride,
                                   tolerance: scheduler.minimumTolerance, options: options) {
            [weak self] in self?.send()
        }
    }

    private func stopTimer() {
        let timer = self.timer
        self.timer = nil
        timer?.cancel()
    }
}

extension Publishers {
    /// Combine's `collect(_:)` with a count: the values in arrays of `count`, the last one
    /// shorter when the stream finishes between.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let group = Last<[Upstream.Output]>()
            let size = Swift.max(1, count)
            let link = FlushingRelay(downstream: subscriber, pending: group) { value in
                if group.value == nil { group.value = [] }
                group.value!.append(value)
                guard group.value!.count == size else { return nil }
                defer { group.value = nil }
                return group.value
            }
            upstream.receive(subscriber: link)
        }
    }
}

/// A relay whose finish first sends what `pending` still holds (a partly filled group).
struct FlushingRelay<Input, Downstream: Subscriber>: Subscriber {
    typealias Failure = Downstream.Failure
    let relay: Relay<Input, Downstream>
    let pending: Last<Downstream.Input>
    let combineIdentifier = CombineIdentifier()

    init(downstream: Downstream, pending: Last<Downstream.Input>,
         transform: @escaping (Input) -> Downstream.Input?) {
        relay = Relay(downstream: downstream, transform: transform)
        self.pending = pending
    }

    func receive(subscription: any Subscription) { relay.receive(subscription: subscription) }

    func receive(_ input: Input) -> Subscribers.Demand { relay.receive(input) }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .finished = completion, let rest = pending.value {
            pending.value = nil
            _ = relay.downstream.receive(rest)
        }
        relay.receive(completion: completion)
    }
}

extension Publisher {
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }

    public func collect<S: Scheduler>(_ strategy: Publishers.TimeGroupingStrategy<S>,
                                      options: S.SchedulerOptions? = nil)
        -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}
