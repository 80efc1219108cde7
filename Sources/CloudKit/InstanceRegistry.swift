import Foundation

/// What the facade knows about instances of a Foundation class it cannot subclass or extend
/// with storage (no associated objects on Linux): `NSPredicate(format:)` keeps its parsed
/// form here. Keyed by object identity, with a weak reference so that a new object at a
/// dead one's address is not taken for it. Lock-protected: apps may build predicates on any
/// thread.
final class InstanceRegistry<Object: AnyObject, Value>: @unchecked Sendable {
    // `@unchecked`: every access holds the lock.
    private struct Entry {
        weak var object: Object?
        let value: Value
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The count at which dead entries are next dropped.
    private var pruneAt = 64

    func register(_ object: Object, _ value: Value) {
        lock.withLock {
            entries[ObjectIdentifier(object)] = Entry(object: object, value: value)
            guard entries.count >= pruneAt else { return }
            // tidy: ordered (a filter keeps the live entries; no order is observed)
            entries = entries.filter { $0.value.object != nil }
            pruneAt = max(64, entries.count * 2)
        }
    }

    /// The value registered for this very object; nil for any other.
    func value(for object: Object) -> Value? {
        lock.withLock {
            guard let entry = entries[ObjectIdentifier(object)], entry.object === object
            else { return nil }
            return entry.value
        }
    }
}
