extension Publishers {
    /// Combine's `receive(on:options:)`: each value and the completion are handed on through
    /// the scheduler, so they arrive after the code that sent them, as Apple's do (on a device,
    /// as a task of the device at the same instant).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReceiveOnLink(downstream: subscriber,
                scheduler: scheduler, options: options))
        }
    }
}

/// A subscription that goes through a scheduler (`receive(on:)`, `subscribe(on:)`).
class ScheduledLink<Downstream: Subscriber, Context: Scheduler>:
    ForwardingLink<Downstream.Input, Downstream.Failure, Downstream> {
    let scheduler: Context
    let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.scheduler = scheduler
        self.options = options
        super.init(downstream: downstream)
    }
}

/// One subscription of `receive(on:)`: demand goes up at once, values come down later.
final class ReceiveOnLink<Downstream: Subscriber, Context: Scheduler>:
    ScheduledLink<Downstream, Context> {
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        scheduler.schedule(options: options) {
            guard !self.isEnded else { return }
            let more = self.downstream.receive(input)
            if more > .none { self.upstream?.request(more) }
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        scheduler.schedule(options: options) {
            guard self.end() else { return }
            self.downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
