/// Combine's `AnyCancellable`: cancels what it wraps when cancelled or released, so a
/// subscription lives as long as the app keeps it (`store(in:)`).
public final class AnyCancellable: Cancellable, Hashable {
    private var body: (() -> Void)?

    public init(_ cancel: @escaping () -> Void) {
        body = cancel
    }

    public init<C: Cancellable>(_ canceller: C) {
        body = canceller.cancel
    }

    deinit { body?() }

    public func cancel() {
        let body = self.body
        self.body = nil
        body?()
    }

    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension Cancellable {
    /// Combine's `store(in:)` for any cancellable.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
