/// Combine's `Future`: the closure runs at once and fulfils the promise once, later or now;
/// each subscriber receives that one result, whenever it subscribes.
public final class Future<Output, Failure: Error>: Publisher {
    public typealias Promise = (Result<Output, Failure>) -> Void
    private let fanOut = FanOut<Output, Failure>()
    private var result: Result<Output, Failure>?

    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill(fulfil)
    }

    private func fulfil(_ result: Result<Output, Failure>) {
        guard self.result == nil else { return }
        self.result = result
        switch result {
        case .success(let value):
            fanOut.send(value)
            fanOut.finish(.finished)
        case .failure(let error):
            fanOut.finish(.failure(error))
        }
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        switch result {
        case nil:
            fanOut.attach(subscriber)
        case .success(let value)?:
            FanOut.end(subscriber, value: value, with: .finished)
        case .failure(let error)?:
            FanOut.end(subscriber, with: .failure(error))
        }
    }
}
