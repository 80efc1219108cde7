/// An engine's sync data as the device keeps it on disk: a value only its engine can read.
///
/// The device stores it without knowing its type, and it survives a kill; the engine opens
/// it with `contents(as:)` (an empty box, or one written by another engine, opens as nil and
/// the engine starts from its empty sync data).
///
/// The value sits in a reference-counted box. A device that lends its disk to the engine for
/// one event (`DiskLendingEngine`, behind the contract) hands over the only reference, and
/// the value is then moved out instead of copied, so the engine's changes happen in place
/// rather than copying every collection of the sync data.
///
/// The storage knows its contents' type by identifier and holds the value as an optional:
/// checking the type needs no lookup of the generic storage class's metadata, and moving the
/// value out leaves nil behind rather than an empty value to build and destroy (sync data of
/// dozens of fields made that a noticeable share of an explorer seed; docs/BENCH.md).
public struct SyncDataBox: Hashable, @unchecked Sendable {
    // `@unchecked`: the only way in is `init(_:)`, which takes a `Sendable` value.
    // `@usableFromInline` (and the storage classes' members): `init(_:)` and
    // `lend(as:storage:)` are inlinable, so an engine's own code (`DiskLendingEngine`) gets
    // them specialized for its sync data instead of the generic versions, which looked up
    // type metadata and copied the value through its witnesses on every event.
    @usableFromInline var storage: SyncDataStorage?

    /// A disk no engine wrote to yet.
    public init() {
        storage = nil
    }

    /// `consuming`: the box takes the caller's copy instead of copying it once more.
    @inlinable
    public init<Contents: Hashable & Sendable>(_ contents: consuming Contents) {
        storage = TypedSyncDataStorage(consume contents)
    }

    /// The sync data, if the box holds a value of that type.
    @inlinable
    public func contents<Contents: Hashable & Sendable>(as type: Contents.Type) -> Contents? {
        typed(as: type)?.value
    }

    /// The storage as holding `Contents`, if it does.
    @inlinable
    func typed<Contents: Hashable & Sendable>(as type: Contents.Type)
        -> TypedSyncDataStorage<Contents>?
    {
        guard let storage, storage.contentsType == ObjectIdentifier(type) else { return nil }
        return unsafeDowncast(storage, to: TypedSyncDataStorage<Contents>.self)
    }

    /// The sync data, moved out when this box holds the only reference to it (copied
    /// otherwise); the box is empty afterwards.
    @inlinable
    package mutating func takeContents<Contents: Hashable & Sendable>(
        as type: Contents.Type
    ) -> Contents? {
        guard storage?.contentsType == ObjectIdentifier(type) else {
            storage = nil
            return nil
        }
        // Checked before any other reference to the storage is taken.
        guard isKnownUniquelyReferenced(&storage) else {
            defer { storage = nil }
            return contents(as: type)
        }
        let typed = unsafeDowncast(storage.unsafelyUnwrapped,
            to: TypedSyncDataStorage<Contents>.self)
        storage = nil
        // A swap moves the value out; `take()` compiled to a copy and a destroy here (the
        // code is generic, called through an existential engine).
        var value: Contents?
        swap(&value, &typed.value)
        return value
    }

    /// The sync data lent for one event; `storage` gets the storage they came in, to be
    /// given back with `init(returning:to:)`. Moved out when this box holds the only
    /// reference (the storage comes along, left empty), copied otherwise (no storage); the
    /// box is empty afterwards.
    ///
    /// The lent path (`EngineContext.handlingLentDisk`) writes the sync data back into the
    /// storage they came in instead of a new box: allocating a box and destroying the old
    /// one through its unspecialized deinit cost a measurable share of every event.
    @inlinable
    mutating func lend<Contents: Hashable & Sendable>(
        as type: Contents.Type, storage lentStorage: inout TypedSyncDataStorage<Contents>?
    ) -> Contents? {
        guard storage?.contentsType == ObjectIdentifier(type) else {
            storage = nil
            return nil
        }
        guard isKnownUniquelyReferenced(&storage) else {
            defer { storage = nil }
            return contents(as: type)
        }
        let typed = unsafeDowncast(storage.unsafelyUnwrapped,
            to: TypedSyncDataStorage<Contents>.self)
        storage = nil
        var value: Contents?
        swap(&value, &typed.value)
        lentStorage = consume typed
        return value
    }

    /// A box of `contents`, in `storage` (emptied by `lend(as:)`, referenced by nothing
    /// else) when there is one, else in a new one. The storage is consumed: bound as a copy,
    /// it was retained and the caller's released after.
    @inlinable
    init<Contents: Hashable & Sendable>(
        returning contents: consuming Contents,
        to storage: consuming TypedSyncDataStorage<Contents>?
    ) {
        switch consume storage {
        case .some(let storage):
            storage.value = consume contents
            self.init(storage: storage)
        case .none:
            self.init(storage: Self.newStorage(consume contents))
        }
    }

    /// A new storage of `contents`, made in generic code rather than in the caller's
    /// specialized code: the storage class's metadata is then made with the conformance the
    /// caller passes, not found by its name, which looks the conformance up among all of the
    /// runtime's records (costly, once per process). Rare: the lent path makes one only when
    /// the disk's box held none it could reuse. (Never specialized: a
    /// specialization made in the engine's module found the metadata by name again.)
    @usableFromInline
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    static func newStorage<Contents: Hashable & Sendable>(
        _ contents: consuming Contents
    ) -> SyncDataStorage {
        TypedSyncDataStorage(consume contents)
    }

    @inlinable
    init(storage: SyncDataStorage) {
        self.storage = storage
    }

    public var isEmpty: Bool { storage == nil }

    /// Whether both boxes are the same box (one storage, or both empty): equal without
    /// comparing contents. A device tells by it that a write is the one its disk holds.
    package func isIdentical(to other: SyncDataBox) -> Bool {
        storage === other.storage
    }

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
@usableFromInline
class SyncDataStorage {
    /// The type of the contents, so a reader checks it without the generic subclass's metadata.
    @usableFromInline let contentsType: ObjectIdentifier

    @usableFromInline
    init(contentsType: ObjectIdentifier) {
        self.contentsType = contentsType
    }

    func isEqual(to other: SyncDataStorage) -> Bool { preconditionFailure("abstract") }
    func hash(into hasher: inout Hasher) { preconditionFailure("abstract") }
}

@usableFromInline
final class TypedSyncDataStorage<Contents: Hashable & Sendable>: SyncDataStorage {
    /// Nil only once `takeContents(as:)` or `lend(as:)` moved the value out of the box's
    /// only reference, until the storage is released or the value returned.
    ///
    /// `@exclusivity(unchecked)`: changed only through the box's only reference (`lend`,
    /// `takeContents`, `init(returning:to:)`), read only through shared ones, so no two
    /// accesses overlap and the runtime check (on every event) could never fire.
    @exclusivity(unchecked) @usableFromInline var value: Contents?

    @usableFromInline
    init(_ value: consuming Contents) {
        self.value = consume value
        super.init(contentsType: ObjectIdentifier(Contents.self))
    }

    override func isEqual(to other: SyncDataStorage) -> Bool {
        guard other.contentsType == contentsType else { return false }
        return value == unsafeDowncast(other, to: TypedSyncDataStorage<Contents>.self).value
    }

    override func hash(into hasher: inout Hasher) {
        hasher.combine(1 as UInt8)
        if let value { hasher.combine(value) }
    }
}
