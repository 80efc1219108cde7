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

    public var projectedValue: Publisher { Publisher(storage: storage) }

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
