import Kernel

/// The live records of one zone, each with the sequence of its latest save: a dense array of
/// slots with an open-addressing index from record name to slot.
///
/// A record is one array slot plus an 8-byte slot of the name index (`RecordNameIndex`), far
/// less than a dictionary that holds whole records inline in its hash buckets, and names are
/// filed by `RecordNameHash`, not SipHash. A slot leaves out the zone (every record of a zone
/// is in it: `ZoneState.write` checks), keeps the two times unwrapped, and keeps the sharing fields
/// (`share`, `participants`), which only share records and share roots have, in a side
/// table by name. The record is put together again when read, which costs what copying it
/// out of a dictionary would (the same references retained), plus a lookup for a record
/// with sharing fields.
///
/// A deletion moves the last slot into the hole, so the slots' order is an accident of
/// writes and deletions: it never reaches an output or a decision. The walks that give the
/// order away (`unorderedNames`) say so; the others sort by record name.
struct RecordTable {
    let zone: ZoneID
    private var slots: [Slot] = []
    /// The index from name to slot position, shared by copies until one of them changes; nil
    /// until the first write.
    private var index: IndexStorage?
    /// `share` and `participants` of the records that have either (`Slot.hasSharingFields`),
    /// in the box the record holds them in. Made with `init()`: the literal `[:]` was built
    /// from an empty list of pairs, for every table.
    private var sharingFields: [String: CloudRecord.SharingBox] = Dictionary()

    init(zone: ZoneID) {
        self.zone = zone
    }

    var count: Int { slots.count }
    var isEmpty: Bool { slots.isEmpty }

    /// Whether a live record has this name (without putting the record together).
    func contains(_ name: String) -> Bool {
        find(name).position != nil
    }

    /// The sequence of the latest save of the live record of that name (without putting the
    /// record together).
    func sequence(of name: String) -> Int64? {
        guard let position = find(name).position else { return nil }
        return slots[position].sequence
    }

    /// Where the live record of that name is, for `sequence(at:)` and `record(at:)`: valid
    /// until the table changes (a name looked up once for both).
    func position(of name: String) -> Int? {
        find(name).position
    }

    /// `position(of:)` of a name whose `RecordNameHash.hash` the caller carries (a zone's
    /// change log keeps each entry's: its feed looks up every entry after a token).
    func position(of name: String, nameHash: Int) -> Int? {
        find(name, hash: nameHash).position
    }

    /// The sequence of the latest save of the record at a position from `position(of:)`.
    func sequence(at position: Int) -> Int64 {
        slots[position].sequence
    }

    /// The whole record at a position from `position(of:)`, put together from the fields
    /// of its slot read where they are stored, not from a copy of the slot (every reference
    /// it holds retained and released, for each record read).
    func record(at position: Int) -> CloudRecord {
        let hasCreationTime = slots[position].hasCreationTime
        let hasModificationTime = slots[position].hasModificationTime
        var sharing: CloudRecord.SharingBox?
        if slots[position].hasSharingFields {
            let name = slots[position].recordName
            guard let box = sharingFields[name] else {
                preconditionFailure("record \(name) lost its sharing fields")
            }
            sharing = box
        }
        return CloudRecord(
            recordType: slots[position].recordType, recordName: slots[position].recordName,
            zone: zone, fields: slots[position].fields, parent: slots[position].parent,
            changeTag: slots[position].changeTag,
            creationTime: hasCreationTime
                ? SimTime(microseconds: slots[position].creationMicroseconds) : nil,
            modificationTime: hasModificationTime
                ? SimTime(microseconds: slots[position].modificationMicroseconds) : nil,
            lastModifiedBy: slots[position].lastModifiedBy, sharing: sharing)
    }

    /// The live record of that name with the sequence of its latest save.
    subscript(name: String) -> StoredRecord? {
        guard let position = find(name).position else { return nil }
        return StoredRecord(
            record: record(at: position), sequence: slots[position].sequence,
            createdBy: slots[position].createdBy)
    }

    /// Stores a record under its name with the sequence of this save; returns the record it
    /// replaces, if any.
    mutating func write(_ record: CloudRecord, sequence: Int64) -> CloudRecord? {
        write(record, sequence: sequence, nameHash: RecordNameHash.hash(record.recordName))
    }

    /// `write(_:sequence:)` with the record name's `RecordNameHash.hash`, which the caller
    /// also keeps (a zone's change log: the name is hashed once for both).
    mutating func write(_ record: CloudRecord, sequence: Int64, nameHash: Int) -> CloudRecord? {
        precondition(slots.count < Int(Int32.max), "a zone holds fewer than 2^31 records")
        let name = record.recordName
        let found = find(name, hash: nameHash)
        let isNew = found.position == nil
        let position = found.position ?? slots.count
        if isNew {
            uniqueIndex().index.insert(position, hash: nameHash, count: position + 1)
            if let box = record.sharing { sharingFields[name] = box }
            // Made where it is stored: a slot made in a local first was copied into the
            // array (every reference retained), then the local destroyed.
            slots.append(Slot(record, sequence: sequence))
            return nil
        }
        let previousSharing = slots[position].hasSharingFields ? sharingFields[name] : nil
        if let box = record.sharing {
            sharingFields[name] = box
        } else if previousSharing != nil {
            sharingFields[name] = nil
        }
        // The old slot swapped out and the previous record made from it by moving its
        // fields: put together in place, every reference was retained, then the slot's
        // released. The creator stays the device that saved the record first (FORUM-813286).
        var old = Slot(record, sequence: sequence)
        swap(&old, &slots[position])
        swap(&old.createdBy, &slots[position].createdBy)
        return Self.record(from: old, zone: zone, sharing: previousSharing)
    }

    /// The record a slot taken out of the table holds, with its sharing fields.
    private static func record(
        from slot: consuming Slot, zone: ZoneID, sharing: CloudRecord.SharingBox?
    ) -> CloudRecord {
        CloudRecord(
            recordType: slot.recordType, recordName: slot.recordName, zone: zone,
            fields: slot.fields, parent: slot.parent, changeTag: slot.changeTag,
            creationTime: slot.hasCreationTime
                ? SimTime(microseconds: slot.creationMicroseconds) : nil,
            modificationTime: slot.hasModificationTime
                ? SimTime(microseconds: slot.modificationMicroseconds) : nil,
            lastModifiedBy: slot.lastModifiedBy, sharing: sharing)
    }

    /// Removes the record of that name; returns it with its sequence, nil when there is none.
    mutating func remove(named name: String) -> StoredRecord? {
        remove(named: name, nameHash: RecordNameHash.hash(name))
    }

    /// `remove(named:)` with the name's `RecordNameHash.hash`, which the caller also keeps.
    mutating func remove(named name: String, nameHash: Int) -> StoredRecord? {
        let found = find(name, hash: nameHash)
        guard let position = found.position else { return nil }
        let lastPosition = slots.count - 1
        let lastHash =
            position == lastPosition ? 0 : RecordNameHash.hash(slots[lastPosition].recordName)
        uniqueIndex().index.remove(at: found.bucket, movingLast: lastPosition, lastHash: lastHash)
        let stored = StoredRecord(
            record: record(at: position), sequence: slots[position].sequence,
            createdBy: slots[position].createdBy)
        if slots[position].hasSharingFields { sharingFields[name] = nil }
        let last = slots.removeLast()
        if position < slots.count { slots[position] = last }
        return stored
    }

    /// The record names, sorted.
    var sortedNames: [String] { slots.map(\.recordName).sorted() }

    /// The records, sorted by record name.
    func sortedRecords() -> [CloudRecord] {
        slots.indices
            .sorted { slots[$0].recordName < slots[$1].recordName }
            .map { record(at: $0) }
    }

    /// Every record by name (a lookup table: its order never shows).
    func recordsByName() -> [String: CloudRecord] {
        var records: [String: CloudRecord] = [:]
        records.reserveCapacity(slots.count)
        for position in slots.indices {
            records[slots[position].recordName] = record(at: position)
        }
        return records
    }

    /// The names of the records whose fields satisfy `test`, in no meaningful order: the
    /// caller sorts them before they reach anything.
    func unorderedNames(whereFields test: (SortedMap<String, CloudValue>) -> Bool) -> [String] {
        // By position: walking the slots copied each one out (every reference it holds).
        slots.indices.compactMap { test(slots[$0].fields) ? slots[$0].recordName : nil }
    }
}

extension RecordTable {
    /// A stored record without its zone and sharing fields, its times unwrapped.
    struct Slot {
        var recordType: String
        var recordName: String
        var fields: SortedMap<String, CloudValue>
        var parent: String?
        var changeTag: String?
        var lastModifiedBy: String?
        /// The device whose save created the record (this life of it), for the tombstone a
        /// deletion leaves (FORUM-813286: a fetch without a token reports it to that device).
        var createdBy: String?
        var sequence: Int64
        var creationMicroseconds: Int64
        var modificationMicroseconds: Int64
        /// Which of the two times are set (a stored record has both, but nothing requires it).
        var hasCreationTime: Bool
        var hasModificationTime: Bool
        /// Whether `share` or `participants` is set: the table's `sharingFields` holds them.
        var hasSharingFields: Bool
    }
}

extension RecordTable.Slot {
    // In an extension, so that the slot keeps its memberwise initializer: an initializer
    // written in the struct would build the slot in a temporary and copy it out (as
    // `CloudRecord`'s would).
    init(_ record: CloudRecord, sequence: Int64) {
        self.init(
            recordType: record.recordType, recordName: record.recordName, fields: record.fields,
            parent: record.parent, changeTag: record.changeTag,
            lastModifiedBy: record.lastModifiedBy, createdBy: record.lastModifiedBy,
            sequence: sequence, creationMicroseconds: record.creationTime?.microseconds ?? 0,
            modificationMicroseconds: record.modificationTime?.microseconds ?? 0,
            hasCreationTime: record.creationTime != nil,
            hasModificationTime: record.modificationTime != nil,
            hasSharingFields: record.sharing != nil)
    }
}

extension RecordTable {
    /// The name index's memory, freed with the last table that holds it.
    private final class IndexStorage: @unchecked Sendable {
        // Changed only through a table holding the only reference (`uniqueIndex`), never
        // while a read of it is under way.
        @exclusivity(unchecked) var index: RecordNameIndex

        init(_ index: RecordNameIndex) {
            self.index = index
        }

        deinit { index.deallocate() }
    }

    /// The name index, copied first when another table shares it, made at the first write.
    private mutating func uniqueIndex() -> IndexStorage {
        if !isKnownUniquelyReferenced(&index) {
            index = IndexStorage(index?.index.copy() ?? RecordNameIndex())
        }
        return index.unsafelyUnwrapped
    }

    /// The slot of a name's position in the index and the position, or the empty slot where
    /// it would go (-1 when the index has no slots yet).
    private func find(_ name: String) -> (bucket: Int, position: Int?) {
        guard index != nil else { return (-1, nil) }
        return find(name, hash: RecordNameHash.hash(name))
    }

    /// `find` with the name's `RecordNameHash.hash`.
    private func find(_ name: String, hash: Int) -> (bucket: Int, position: Int?) {
        guard let index = index?.index, var probe = index.probe(hash) else { return (-1, nil) }
        while let position = index.next(&probe) {
            if slots[position].recordName == name { return (probe.slot, position) }
        }
        return (probe.slot, nil)
    }
}
