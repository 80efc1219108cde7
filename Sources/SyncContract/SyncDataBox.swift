/// An engine's sync data as the device keeps it on disk: a value only its engine can read.
///
/// The device stores it without knowing its type, and it survives a kill; the engine opens
/// it with `contents(as:)` (an empty box, or one written by another engine, opens as nil and
/// the engine starts from its empty sync data).
///
/// The value sits in a reference-counted box. A device that lends its disk to the engine for
/// one event (`SyncEngine.writesWholeStateFirst`) hands over the only reference, and
/// `takeContents(as:)` then moves the value out instead of copying it, so the engine's
/// changes happen in place rather than copying every collection of the sync data.
public struct SyncDataBox: Hashable, @unchecked Sendable {
    // `@unchecked`: the only way in is `init(_:)`, which takes a `Sendable` value.
    private var storage: SyncDataStorage?

    /// A disk no engine wrote to yet.
    public init() {
        storage = nil
    }

    public init<Contents: Hashable & Sendable>(_ contents: Contents) {
        storage = TypedSyncDataStorage(contents)
    }

    /// The sync data, if the box holds a value of that type.
    public func contents<Contents: Hashable & Sendable>(as type: Contents.Type) -> Contents? {
        (storage as? TypedSyncDataStorage<Contents>)?.value
    }

    /// The sync data, moved out when this box holds the only reference to it (copied
    /// otherwise); the box is empty afterwards.
    public mutating func takeContents<Contents: Hashable & Sendable>(
        as type: Contents.Type, leaving empty: Contents
    ) -> Contents? {
        guard storage is TypedSyncDataStorage<Contents> else {
            storage = nil
            return nil
        }
        guard isKnownUniquelyReferenced(&storage) else {
            defer { storage = nil }
            return contents(as: type)
        }
        let typed = unsafeDowncast(storage.unsafelyUnwrapped, to: TypedSyncDataStorage<Contents>.self)
        storage = nil
        var value = empty
        swap(&value, &typed.value)
        return value
    }

    public var isEmpty: Bool { storage == nil }

    public static func == (lhs: SyncDataBox, rhs: SyncDataBox) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (nil, nil): return true
        case (let left?, let right?): return left === right || left.isEqual(to: right)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let storage {
            storage.hash(into: &hasher)
        } else {
            hasher.combine(0 as UInt8)
        }
    }
}

/// The box's storage, of a type the device does not know.
private class SyncDataStorage {
    func isEqual(to other: SyncDataStorage) -> Bool { preconditionFailure("abstract") }
    func hash(into hasher: inout Hasher) { preconditionFailure("abstract") }
}

private final class TypedSyncDataStorage<Contents: Hashable & Sendable>: SyncDataStorage {
    var value: Contents

    init(_ value: Contents) {
        self.value = value
    }

    override func isEqual(to other: SyncDataStorage) -> Bool {
        guard let other = other as? TypedSyncDataStorage<Contents> else { return false }
        return value == other.value
    }

    override func hash(into hasher: inout Hasher) {
        hasher.combine(1 as UInt8)
        hasher.combine(value)
    }
}
