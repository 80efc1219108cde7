/// A `@Published` property's storage as its object's `objectWillChange` finds it.
protocol PublishedField: AnyObject {
    var announcer: ObservableObjectPublisher? { get set }
}

/// A `@Published` property, whatever its value's type.
protocol PublishedWrapper {
    var field: any PublishedField { get }
}

/// Combine's `@Published`: the value, and its publisher as the projected value (`$name`),
/// which sends the current value to a new subscriber and each new one before it is stored.
/// In a class, a change is announced on the object's `objectWillChange` first.
@propertyWrapper
public struct Published<Value> {
    final class Storage: PublishedField {
        var value: Value
        let fanOut = FanOut<Value, Never>()
        var announcer: ObservableObjectPublisher?
        /// The subscription `assign(to:)` made, which lives as long as the property.
        var assigned: AnyCancellable?

        init(_ value: Value) { self.value = value }

        func set(_ newValue: Value) {
            announcer?.send()
            fanOut.send(newValue)
            value = newValue
        }
    }

    /// Combine's `Published.Publisher`.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never
        let storage: Storage

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Value, S.Failure == Never {
            storage.fanOut.attach(subscriber, current: storage.value)
        }
    }

    let storage: Storage

    public init(wrappedValue: Value) {
        storage = Storage(wrappedValue)
    }

    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    public var wrappedValue: Value {
        get { storage.value }
        nonmutating set { storage.set(newValue) }
    }

    public var projectedValue: Publisher {
        get { Publisher(storage: storage) }
        // Settable only so that `assign(to: &$name)` can take it in-out; it writes through
        // the storage the publisher shares, so there is nothing to replace.
        nonmutating set {}
    }

    /// In a class: announces the change on the object's `objectWillChange` (found, and kept
    /// in the object's `@Published` properties, the first time it is asked for).
    public static subscript<Object: AnyObject>(
        _enclosingInstance object: Object,
        wrapped wrapped: ReferenceWritableKeyPath<Object, Value>,
        storage storagePath: ReferenceWritableKeyPath<Object, Published<Value>>
    ) -> Value {
        get { object[keyPath: storagePath].storage.value }
        set {
            let storage = object[keyPath: storagePath].storage
            if storage.announcer == nil, let observable = object as? any ObservableObject {
                _ = observable.objectWillChange
            }
            storage.set(newValue)
        }
    }
}

extension Published: PublishedWrapper {
    var field: any PublishedField { storage }
}

extension Published: @unchecked Sendable where Value: Sendable {}
// `@unchecked`: its storage is read and written on the simulation's one thread.

extension Publisher where Failure == Never {
    /// Combine's `assign(to:)`: every value is set on the `@Published` property (announced
    /// as any change of it is), for as long as the property lives.
    public func assign(to published: inout Published<Output>.Publisher) {
        let storage = published.storage
        let sink = Subscribers.Sink<Output, Never>(receiveCompletion: { _ in }) {
            [weak storage] value in storage?.set(value)
        }
        storage.assigned = AnyCancellable(sink)
        receive(subscriber: sink)
    }
}
