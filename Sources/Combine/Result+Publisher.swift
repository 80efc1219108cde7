extension Result {
    /// Combine's `Result.Publisher`: the success as one value and the end, or the failure.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Success
        public let result: Result<Success, Failure>

        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        public init(_ output: Success) {
            result = .success(output)
        }

        public init(_ failure: Failure) {
            result = .failure(failure)
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let value):
                FanOut.end(subscriber, value: value, with: .finished, name: "Once")
            case .failure(let error):
                FanOut.end(subscriber, with: .failure(error))
            }
        }
    }

    public var publisher: Publisher {
        Publisher(self)
    }
}
