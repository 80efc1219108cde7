/// Combine's `Subject`: a publisher the app sends values into.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Output)
    func send(completion: Subscribers.Completion<Failure>)
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    public func send() { send(()) }
}

/// Combine's `PassthroughSubject`: sends each value to the subscribers attached now, those
/// that still want one; a value nobody wants is dropped, as Apple's is.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    let fanOut = FanOut<Output, Failure>()

    public init() {
        fanOut.name = "PassthroughSubject"
    }

    public func send(_ value: Output) { fanOut.send(value) }

    public func send(completion: Subscribers.Completion<Failure>) {
        fanOut.finish(completion)
    }

    public func send(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        fanOut.attach(subscriber)
    }
}

/// Combine's `CurrentValueSubject`: a value that new subscribers receive first, and every
/// later one.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    let fanOut = FanOut<Output, Failure>()

    public var value: Output {
        didSet { fanOut.send(value) }
    }

    public init(_ value: Output) {
        self.value = value
        fanOut.name = "CurrentValueSubject"
    }

    public func send(_ value: Output) { self.value = value }

    public func send(completion: Subscribers.Completion<Failure>) {
        fanOut.finish(completion)
    }

    public func send(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        fanOut.attach(subscriber, current: value)
    }
}
