/// Combine's `ObservableObject` for view models written for Apple platforms, run under
/// SyncLab on Linux (no UI observes them): the conformance and `objectWillChange` compile,
/// and changes are published to subscribers synchronously, on the caller's executor.
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher
}

/// The publisher an `ObservableObject` sends before it changes.
public final class ObservableObjectPublisher: @unchecked Sendable {
    // `@unchecked`: subscribers are added and called on the simulation's one thread.
    private var subscribers: [() -> Void] = []

    public init() {}

    public func send() {
        for subscriber in subscribers { subscriber() }
    }

    /// Calls `body` before every change (Combine's `sink`, without cancellation).
    public func sink(receiveValue body: @escaping () -> Void) {
        subscribers.append(body)
    }
}

/// Combine's `@Published`: the value, readable and settable as on Apple platforms; the
/// projected value is the value itself (no publisher chain is simulated).
@propertyWrapper
public struct Published<Value> {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public init(initialValue: Value) {
        wrappedValue = initialValue
    }

    public var projectedValue: Value {
        get { wrappedValue }
        set { wrappedValue = newValue }
    }
}

extension Published: Sendable where Value: Sendable {}

extension ObservableObject {
    /// A publisher no UI subscribes to here (sending on it does nothing).
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}
