/// Combine's `ObservableObject` for view models written for Apple platforms, run under
/// SyncLab on Linux (no UI observes them): `objectWillChange` sends before any of the object's
/// `@Published` properties changes, to subscribers on the caller's executor.
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    var objectWillChange: ObjectWillChangePublisher { get }
}

/// The publisher an `ObservableObject` sends before it changes.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    // `@unchecked`: subscribers are added and called on the simulation's one thread.
    public typealias Output = Void
    public typealias Failure = Never
    private let fanOut = FanOut<Void, Never>()

    public init() {}

    public func send() {
        fanOut.send(())
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        fanOut.attach(subscriber)
    }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// One publisher per object, kept by its `@Published` properties (an object without one
    /// has nothing to announce: it gets a publisher that never sends).
    public var objectWillChange: ObservableObjectPublisher {
        var shared: ObservableObjectPublisher?
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                guard let field = (child.value as? any PublishedWrapper)?.field else { continue }
                if shared == nil { shared = field.announcer ?? ObservableObjectPublisher() }
                field.announcer = shared
            }
            mirror = current.superclassMirror
        }
        return shared ?? ObservableObjectPublisher()
    }
}
