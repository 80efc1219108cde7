import Kernel

/// The live records of one zone, each with the sequence of its latest save: a dense array of
/// slots with an index from record name to slot.
///
/// Issue 19: a `[String: StoredRecord]` held every record inline in its hash buckets, about
/// 200 bytes a bucket and 2.6 buckets a record at 50,000 records (525 bytes a record). Here a
/// record is one array slot plus an index bucket of a name and an `Int32`. A slot leaves out
/// the zone (every record of a zone is in it: `ZoneState.write` checks), keeps the two times
/// unwrapped, and keeps the sharing fields (`share`, `participants`), which only share records
/// and share roots have, in a side table by name: 120 bytes instead of a `StoredRecord`'s
/// 184. The record is put together again when read, which costs what copying it out of the
/// dictionary did (the same references retained), plus a lookup for a record with sharing
/// fields.
///
/// A deletion moves the last slot into the hole, so the slots' order is an accident of
/// writes and deletions: it never reaches an output or a decision. The walks that give the
/// order away (`unorderedNames`) say so; the others sort by record name.
struct RecordTable {
    let zone: ZoneID
    private var slots: [Slot] = []
    private var index: [String: Int32] = [:]
    /// `share` and `participants` of the records that have either (`Slot.hasSharingFields`).
    private var sharingFields: [String: SharingFields] = [:]

    init(zone: ZoneID) {
        self.zone = zone
    }

    var count: Int { slots.count }
    var isEmpty: Bool { slots.isEmpty }

    /// Whether a live record has this name (without putting the record together).
    func contains(_ name: String) -> Bool {
        index[name] != nil
    }

    /// The sequence of the latest save of the live record of that name (without putting the
    /// record together).
    func sequence(of name: String) -> Int64? {
        guard let position = index[name] else { return nil }
        return slots[Int(position)].sequence
    }

    /// The live record of that name with the sequence of its latest save.
    subscript(name: String) -> StoredRecord? {
        guard let position = index[name] else { return nil }
        let slot = slots[Int(position)]
        return StoredRecord(record: record(of: slot), sequence: slot.sequence)
    }

    /// Stores a record under its name with the sequence of this save; returns the record it
    /// replaces, if any.
    mutating func write(_ record: CloudRecord, sequence: Int64) -> CloudRecord? {
        let next = slots.count
        precondition(next < Int(Int32.max), "a zone holds fewer than 2^31 records")
        let name = record.recordName
        // One lookup of the name: an absent name gets the next slot in the same access.
        var isNew = false
        let position = Self.claim(&index[name, default: -1], next: Int32(next)) {
            isNew = true
        }
        let previous = isNew ? nil : self.record(of: slots[Int(position)])
        let slot = Slot(record, sequence: sequence)
        if slot.hasSharingFields {
            sharingFields[name] = SharingFields(
                share: record.share, participants: record.participants)
        } else if previous.map(Self.hasSharingFields) == true {
            sharingFields[name] = nil
        }
        if isNew {
            slots.append(slot)
        } else {
            slots[Int(position)] = slot
        }
        return previous
    }

    /// The slot an index entry names, given the next free slot when the entry is new (-1).
    private static func claim(
        _ entry: inout Int32, next: Int32, whenNew: () -> Void
    ) -> Int32 {
        if entry < 0 {
            entry = next
            whenNew()
        }
        return entry
    }

    /// Removes the record of that name; returns it with its sequence, nil when there is none.
    mutating func remove(named name: String) -> StoredRecord? {
        guard let position = index.removeValue(forKey: name).map(Int.init) else { return nil }
        let removed = slots[position]
        let stored = StoredRecord(record: record(of: removed), sequence: removed.sequence)
        if removed.hasSharingFields { sharingFields[name] = nil }
        let last = slots.removeLast()
        if position < slots.count {
            slots[position] = last
            index[last.recordName] = Int32(position)
        }
        return stored
    }

    /// The record names, sorted.
    var sortedNames: [String] { slots.map(\.recordName).sorted() }

    /// The records, sorted by record name.
    func sortedRecords() -> [CloudRecord] {
        slots.indices
            .sorted { slots[$0].recordName < slots[$1].recordName }
            .map { record(of: slots[$0]) }
    }

    /// Every record by name (a lookup table: its order never shows).
    func recordsByName() -> [String: CloudRecord] {
        var records: [String: CloudRecord] = [:]
        records.reserveCapacity(slots.count)
        for slot in slots { records[slot.recordName] = record(of: slot) }
        return records
    }

    /// The names of the records whose fields satisfy `test`, in no meaningful order: the
    /// caller sorts them before they reach anything.
    func unorderedNames(whereFields test: (SortedMap<String, CloudValue>) -> Bool) -> [String] {
        slots.compactMap { test($0.fields) ? $0.recordName : nil }
    }

    /// The whole record a slot holds.
    private func record(of slot: Slot) -> CloudRecord {
        var record = CloudRecord(
            recordType: slot.recordType, recordName: slot.recordName, zone: zone,
            fields: slot.fields, parent: slot.parent, changeTag: slot.changeTag)
        record.creationTime =
            slot.hasCreationTime ? SimTime(microseconds: slot.creationMicroseconds) : nil
        record.modificationTime =
            slot.hasModificationTime ? SimTime(microseconds: slot.modificationMicroseconds) : nil
        record.lastModifiedBy = slot.lastModifiedBy
        if slot.hasSharingFields {
            guard let sharing = sharingFields[slot.recordName] else {
                preconditionFailure("record \(slot.recordName) lost its sharing fields")
            }
            record.share = sharing.share
            record.participants = sharing.participants
        }
        return record
    }

    /// Whether a record has a sharing field set.
    private static func hasSharingFields(_ record: CloudRecord) -> Bool {
        record.share != nil || !record.participants.isEmpty
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
        var sequence: Int64
        var creationMicroseconds: Int64
        var modificationMicroseconds: Int64
        /// Which of the two times are set (a stored record has both, but nothing requires it).
        var hasCreationTime: Bool
        var hasModificationTime: Bool
        /// Whether `share` or `participants` is set: the table's `sharingFields` holds them.
        var hasSharingFields: Bool

        init(_ record: CloudRecord, sequence: Int64) {
            recordType = record.recordType
            recordName = record.recordName
            fields = record.fields
            parent = record.parent
            changeTag = record.changeTag
            lastModifiedBy = record.lastModifiedBy
            self.sequence = sequence
            creationMicroseconds = record.creationTime?.microseconds ?? 0
            modificationMicroseconds = record.modificationTime?.microseconds ?? 0
            hasCreationTime = record.creationTime != nil
            hasModificationTime = record.modificationTime != nil
            hasSharingFields = RecordTable.hasSharingFields(record)
        }
    }

    /// The sharing fields of one record.
    struct SharingFields {
        var share: String?
        var participants: [ShareParticipant]
    }
}
