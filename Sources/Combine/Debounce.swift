extension Publishers {
    /// Combine's `debounce(for:scheduler:options:)`: a value is delivered once `dueTime` has
    /// passed with no newer one; a completion drops the value still waiting, as Apple's does.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let dueTime: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DebounceLink(downstream: subscriber, dueTime: dueTime,
                scheduler: scheduler, options: options))
        }
    }
}

/// One subscription of `debounce`: the newest value, and a count that tells a stale wait.
final class DebounceLink<Downstream: Subscriber, Context: Scheduler>:
    ForwardingLink<Downstream.Input, Downstream.Failure, Downstream> {
    let dueTime: Context.SchedulerTimeType.Stride
    let scheduler: Context
    let options: Context.SchedulerOptions?
    private var waiting: Downstream.Input?
    private var generation = 0

    init(downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
         options: Context.SchedulerOptions?) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.options = options
        super.init(downstream: downstream, asksForEverything: true)
    }

    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard isSubscribed else { return .none }
        generation += 1
        let current = generation
        waiting = input
        scheduler.schedule(after: scheduler.now.advanced(by: dueTime),
                           tolerance: scheduler.minimumTolerance, options: options) { [weak self] in
            self?.due(current)
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard end() else { return }
        waiting = nil
        scheduler.schedule(options: options) { self.downstream.receive(completion: completion) }
    }

    private func due(_ wait: Int) {
        guard isSubscribed, wait == generation, let value = waiting else { return }
        waiting = nil
        offer(value)
    }
}

extension Publisher {
    public func debounce<S: Scheduler>(for dueTime: S.SchedulerTimeType.Stride, scheduler: S,
                                       options: S.SchedulerOptions? = nil)
        -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler,
                            options: options)
    }
}
