/// An engine's sync data as the device keeps it on disk: a value only its engine can read.
///
/// The device stores it without knowing its type, and it survives a kill; the engine opens
/// it with `contents(as:)` (an empty box, or one written by another engine, opens as nil and
/// the engine starts from its empty sync data).
public struct SyncDataBox: Hashable, @unchecked Sendable {
    // `@unchecked`: the only way in is `init(_:)`, which takes a `Sendable` value.
    private let value: AnyHashable?

    /// A disk no engine wrote to yet.
    public init() {
        value = nil
    }

    public init<Contents: Hashable & Sendable>(_ contents: Contents) {
        value = AnyHashable(contents)
    }

    /// The sync data, if the box holds a value of that type.
    public func contents<Contents: Hashable & Sendable>(as type: Contents.Type) -> Contents? {
        value?.base as? Contents
    }

    public var isEmpty: Bool { value == nil }
}
