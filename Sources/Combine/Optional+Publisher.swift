extension Optional {
    /// Combine's `Optional.Publisher`: the wrapped value and the end, or only the end.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never
        public let output: Wrapped?

        public init(_ output: Wrapped?) {
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Wrapped, S.Failure == Never {
            FanOut.end(subscriber, value: output, with: .finished, name: "Optional")
        }
    }

    public var publisher: Publisher {
        Publisher(self)
    }
}
