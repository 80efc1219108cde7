extension Publishers {
    /// Combine's `print(_:to:)`: every event of the stream written as a line, in Apple's
    /// words (`receive value: (1)`, `request unlimited`, …), to `stream` or standard output.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let prefix: String
        public let stream: (any TextOutputStream)?

        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let log = PrintLog(prefix: prefix, stream: stream)
            upstream.receive(subscriber: PrintLink(downstream: subscriber, log: log))
        }
    }
}

/// Where one subscription of `print` writes.
final class PrintLog {
    let prefix: String
    private var stream: (any TextOutputStream)?

    init(prefix: String, stream: (any TextOutputStream)?) {
        self.prefix = prefix
        self.stream = stream
    }

    func write(_ event: String) {
        let line = prefix.isEmpty ? event : "\(prefix): \(event)"
        guard stream != nil else { return Swift.print(line) }
        stream!.write(line + "\n")
    }
}

/// One subscription of `print`: the events pass through unchanged, each written first.
final class PrintLink<Downstream: Subscriber>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    let log: PrintLog
    private var upstream: (any Subscription)?

    init(downstream: Downstream, log: PrintLog) {
        self.downstream = downstream
        self.log = log
    }

    func receive(subscription: any Subscription) {
        log.write("receive subscription: (\(subscription))")
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.write("receive value: (\(input))")
        let more = downstream.receive(input)
        if let count = more.max, count > 0 { log.write("request max: (\(count)) (synchronous)") }
        if more.max == nil { log.write("request unlimited (synchronous)") }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.write("receive finished")
        case .failure(let error): log.write("receive error: (\(error))")
        }
        upstream = nil
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        log.write(demand.max.map { "request max: (\($0))" } ?? "request unlimited")
        upstream?.request(demand)
    }

    func cancel() {
        log.write("receive cancel")
        let subscription = upstream
        upstream = nil
        subscription?.cancel()
    }
}

extension Publisher {
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil)
        -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
