#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Publishers {
    /// Combine's `breakpoint(…)` and `breakpointOnError()`: when a closure answers true, the
    /// process gets `SIGTRAP`, as Apple's does: a debugger stops there, and without one the
    /// program ends.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let receiveSubscription: ((any Subscription) -> Bool)?
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        public init(upstream: Upstream,
                    receiveSubscription: ((any Subscription) -> Bool)? = nil,
                    receiveOutput: ((Upstream.Output) -> Bool)? = nil,
                    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let (subscription, output, completion) =
                (receiveSubscription, receiveOutput, receiveCompletion)
            upstream.handleEvents(
                receiveSubscription: { if subscription?($0) == true { trap() } },
                receiveOutput: { if output?($0) == true { trap() } },
                receiveCompletion: { if completion?($0) == true { trap() } }
            ).receive(subscriber: subscriber)
        }
    }
}

/// Raises the debugger's signal.
private func trap() {
    raise(SIGTRAP)
}

extension Publisher {
    public func breakpoint(receiveSubscription: ((any Subscription) -> Bool)? = nil,
                           receiveOutput: ((Output) -> Bool)? = nil,
                           receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil)
        -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(upstream: self, receiveSubscription: receiveSubscription,
                              receiveOutput: receiveOutput, receiveCompletion: receiveCompletion)
    }

    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}
