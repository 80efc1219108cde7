import Kernel

/// A record name as the key of a zone's tables by name (tombstones, earlier versions), with
/// its `RecordNameHash` computed once.
///
/// `String`'s own hashing (SipHash over every byte) would be most of each lookup, and a write or
/// deletion of a record looks its name up in two such tables after hashing it for the record table
/// already; the hash is carried from there (`ZoneState.write`, `delete`) and from the change log.
/// Equal when the names are (`RecordNameHash` is consistent with `String`'s `==`); the tables only
/// answer lookups, and are walked in name order: the buckets' order never shows. Engines use it too
/// (sds's `RecordNameSet`), so a name's hash is one concept, not one per module.
public struct HashedRecordName: Hashable, Sendable {
    public let name: String
    /// `RecordNameHash.hash(name)`.
    public let nameHash: Int

    @inlinable
    public init(_ name: String) {
        self.init(name, nameHash: RecordNameHash.hash(name))
    }

    /// A name whose `RecordNameHash.hash` the caller already has.
    @inlinable
    public init(_ name: String, nameHash: Int) {
        self.name = name
        self.nameHash = nameHash
    }

    /// The hashes first: names whose hashes differ differ, and their bytes are not read.
    @inlinable
    public static func == (lhs: HashedRecordName, rhs: HashedRecordName) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.name == rhs.name
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(nameHash)
    }

    /// What `Dictionary` and `Set` file the name under (`TableHash`: no `Hasher`).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        TableHash.mix(UInt64(bitPattern: Int64(nameHash)), seed: seed)
    }
}
