/// Combine's `Empty`: no value, and the end at once unless told otherwise.
public struct Empty<Output, Failure: Error>: Publisher {
    public let completeImmediately: Bool

    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    public init(completeImmediately: Bool = true, outputType: Output.Type,
                failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        guard completeImmediately else {
            // A subscription that never sends; the fan-out behind it need not live on.
            let silent = FanOut<Output, Failure>()
            return silent.attach(subscriber)
        }
        FanOut.end(subscriber, with: .finished)
    }
}

/// Combine's `Fail`: the failure at once.
public struct Fail<Output, Failure: Error>: Publisher {
    public let error: Failure

    public init(error: Failure) {
        self.error = error
    }

    public init(outputType: Output.Type, failure: Failure) {
        error = failure
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        FanOut.end(subscriber, with: .failure(error))
    }
}
