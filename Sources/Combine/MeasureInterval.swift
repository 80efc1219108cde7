extension Publishers {
    /// Combine's `measureInterval(using:options:)`: for each value, the time on the scheduler's
    /// clock since the one before it (the first, since the subscription); on a device, in
    /// simulated time.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let scheduler = self.scheduler
            let last = Last<Context.SchedulerTimeType>()
            last.value = scheduler.now
            upstream.receive(subscriber: Relay(downstream: subscriber) { _ in
                let now = scheduler.now
                defer { last.value = now }
                return last.value!.distance(to: now)
            })
        }
    }
}

extension Publisher {
    public func measureInterval<S: Scheduler>(using scheduler: S,
                                              options: S.SchedulerOptions? = nil)
        -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
