import LocalStore

/// Every record name the `sds` engine knows: the model bound to it (SDSSyncData's bindings)
/// and the change tag of its record as last seen from the server, in one table keyed by name.
///
/// It replaces three maps (`[ModelID: String]`, its reverse `[String: ModelID]` and
/// `[String: String]` of change tags) that hashed the same 36-character name up to three
/// times, held it in two hash tables and cost about 210 bytes a record on each device
/// (docs/ENGINE.md, issue 19). Here a name is one entry of a dense array (name, model,
/// change tag: 40 bytes); an open-addressing index of 4-byte entry numbers finds an entry
/// by name (one hash of the name per lookup), and a dense array of 4-byte entry numbers by
/// model identifier finds a model's entry without hashing (the store hands identifiers out
/// densely from 1; identifiers beyond `denseLimit` go to a small map). About 70 bytes a
/// record.
///
/// The entries' order is an artefact of insertions and removals (a removal moves the last
/// entry into the hole) and is never shown: readers in order sort (`sortedNames`) or walk
/// the models' dense array (`boundModels`). Equal when the same names have the same models
/// and change tags, whatever the layout.
public struct RecordTable: Hashable, Sendable {
    /// Identifiers below this are kept in the dense array (256 MB of entry numbers at most).
    static let denseLimit: UInt64 = 1 << 26

    struct Entry: Hashable, Sendable {
        var name: String
        /// The bound model's raw value + 1; 0: no model (a record known only by its tag).
        var model: UInt64
        var changeTag: String?

        var modelID: ModelID? { model == 0 ? nil : ModelID(model &- 1) }
    }

    private var entries: [Entry] = []
    /// Open addressing with linear probing: entry number + 1, 0 for an empty slot; a power
    /// of two long, at most three quarters full.
    private var slots: [UInt32] = []
    /// By model raw value: the number + 1 of the entry bound to it, 0 for none.
    private var byModel: [UInt32] = []
    private var outliers: [ModelID: UInt32] = [:]
    /// Models bound to a name.
    public private(set) var boundCount = 0

    public init() {}

    // MARK: Reading

    /// The record name bound to the model.
    public func name(of model: ModelID) -> String? {
        entryIndex(of: model).map { entries[$0].name }
    }

    /// The model bound to the record name.
    public func model(named name: String) -> ModelID? {
        find(name).entry.flatMap { entries[$0].modelID }
    }

    /// The change tag of the record as last seen from the server.
    public func changeTag(of name: String) -> String? {
        find(name).entry.flatMap { entries[$0].changeTag }
    }

    /// Both at once, for a reader that keeps them (PageJournal).
    public func entry(named name: String) -> (model: ModelID?, changeTag: String?)? {
        find(name).entry.map { (entries[$0].modelID, entries[$0].changeTag) }
    }

    /// The models bound to a name, in identifier order (no sorting: the dense array's order).
    public var boundModels: [ModelID] {
        var result: [ModelID] = []
        result.reserveCapacity(boundCount)
        for (raw, number) in byModel.enumerated() where number != 0 { // tidy: ordered the dense array's index order
            result.append(ModelID(UInt64(raw)))
        }
        result.append(contentsOf: outliers.keys.sorted())
        return result
    }

    /// The record names bound to a model, sorted.
    public var sortedBoundNames: [String] {
        entries.compactMap { $0.model == 0 ? nil : $0.name }.sorted()
    }

    // MARK: Changing

    /// Binds a model to its record name; a name or model bound elsewhere before is unbound
    /// from it (a change tag stays with its name).
    public mutating func bind(_ model: ModelID, to name: String) {
        precondition(model.rawValue != UInt64.max, "model identifier \(model) is out of range")
        let found = find(name)
        if let index = found.entry, entries[index].model == model.rawValue &+ 1 { return }
        // The model's previous name loses it (and goes if it holds nothing else).
        unbind(model)
        let index: Int
        if let existing = find(name).entry {
            index = existing
            if let other = entries[index].modelID { setEntryNumber(0, of: other); boundCount -= 1 }
        } else {
            index = insert(Entry(name: name, model: 0, changeTag: nil))
        }
        entries[index].model = model.rawValue &+ 1
        setEntryNumber(UInt32(index + 1), of: model)
        boundCount += 1
    }

    /// Forgets a model's binding (its name's change tag stays).
    public mutating func unbind(_ model: ModelID) {
        guard let index = entryIndex(of: model) else { return }
        setEntryNumber(0, of: model)
        boundCount -= 1
        entries[index].model = 0
        if entries[index].changeTag == nil { remove(at: index) }
    }

    /// Sets (or with nil, forgets) the change tag of a record.
    public mutating func setChangeTag(_ tag: String?, for name: String) {
        if let index = find(name).entry {
            entries[index].changeTag = tag
            if tag == nil && entries[index].model == 0 { remove(at: index) }
        } else if let tag {
            insert(Entry(name: name, model: 0, changeTag: tag))
        }
    }

    /// Forgets every change tag; the bindings stay.
    public mutating func removeAllChangeTags() {
        guard entries.contains(where: { $0.changeTag != nil }) else { return }
        var kept = RecordTable()
        for model in boundModels { // tidy: ordered identifier order
            if let name = name(of: model) { kept.bind(model, to: name) }
        }
        self = kept
    }

    // MARK: Equality

    public static func == (lhs: RecordTable, rhs: RecordTable) -> Bool {
        guard lhs.entries.count == rhs.entries.count, lhs.boundCount == rhs.boundCount else { return false }
        for entry in lhs.entries { // tidy: ordered every entry checked independently
            guard let index = rhs.find(entry.name).entry, rhs.entries[index] == entry else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Independent of the entries' order, as equality is.
        var sum = 0
        for entry in entries { // tidy: ordered a commutative sum
            var entryHasher = Hasher()
            entryHasher.combine(entry)
            sum &+= entryHasher.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(sum)
    }

    // MARK: The index

    /// The slot hash of a name, consistent with `String`'s `==` (canonical equivalence).
    ///
    /// An ASCII name (every record name the simulator draws, and most a scenario gives) is
    /// hashed from its bytes, eight at a time, each word mixed in by a multiplication, then
    /// MurmurHash3's 64-bit finalizer: about a tenth of what `Hasher` (SipHash-1-3) takes
    /// for a 36-byte name. Another name is hashed by `Hasher`, unless it is canonically
    /// equivalent to an ASCII string (only three characters decompose to ASCII: U+037E,
    /// U+1FEF, U+212A), which is then hashed as that string. The same in every process
    /// except for the `Hasher` case, and the slots' order never shows (lookups only).
    static func hash(_ name: String) -> Int {
        let ascii = name.utf8.withContiguousStorageIfAvailable { asciiHash(UnsafeRawBufferPointer($0)) }
            ?? { var copy = name; return copy.withUTF8 { asciiHash(UnsafeRawBufferPointer($0)) } }()
        if let ascii { return ascii }
        var equivalent = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x037E: equivalent.append(";")
            case 0x1FEF: equivalent.append("`")
            case 0x212A: equivalent.append("K")
            default: equivalent.append(scalar)
            }
        }
        var folded = String(equivalent)
        if let ascii = folded.withUTF8({ asciiHash(UnsafeRawBufferPointer($0)) }) { return ascii }
        // Seeded per process, like every `Hasher`: only where a name goes in the index, which
        // never shows.
        var hasher = Hasher()
        hasher.combine(name)
        return hasher.finalize()
    }

    /// The hash of ASCII bytes; nil when a byte is not ASCII.
    private static func asciiHash(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var state = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
        var highBits: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            highBits |= word
            state = (state ^ word) &* multiplier
            state ^= state >> 32
            offset += 8
        }
        let rest = bytes.count - offset
        if rest > 0 {
            // The last 1–7 bytes as the low bits of a word (little-endian): read with the
            // word that ends the name, which overlaps bytes already mixed in, and shift those
            // out; a name shorter than a word is read byte by byte.
            var tail: UInt64
            if bytes.count >= 8 {
                tail = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
                tail >>= UInt64(8 - rest) * 8
            } else {
                tail = 0
                for index in 0..<rest { tail |= UInt64(bytes[offset + index]) << (UInt64(index) * 8) }
            }
            highBits |= tail
            state = (state ^ tail) &* multiplier
        }
        guard highBits & 0x8080_8080_8080_8080 == 0 else { return nil }
        state ^= state >> 33
        state &*= 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        state &*= 0xC4CE_B9FE_1A85_EC53
        state ^= state >> 33
        return Int(truncatingIfNeeded: state)
    }

    /// The entry holding the name, and the slot where it is (or where it would go).
    private func find(_ name: String) -> (slot: Int, entry: Int?) {
        guard !slots.isEmpty else { return (-1, nil) }
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        while true {
            let number = slots[slot]
            if number == 0 { return (slot, nil) }
            if entries[Int(number) - 1].name == name { return (slot, Int(number) - 1) }
            slot = (slot + 1) & mask
        }
    }

    private func entryIndex(of model: ModelID) -> Int? {
        let number: UInt32
        if model.rawValue < Self.denseLimit {
            let raw = Int(model.rawValue)
            guard raw < byModel.count else { return nil }
            number = byModel[raw]
        } else {
            number = outliers[model] ?? 0
        }
        return number == 0 ? nil : Int(number) - 1
    }

    private mutating func setEntryNumber(_ number: UInt32, of model: ModelID) {
        guard model.rawValue < Self.denseLimit else {
            outliers[model] = number == 0 ? nil : number
            return
        }
        let raw = Int(model.rawValue)
        if raw >= byModel.count {
            guard number != 0 else { return }
            // Doubling, so a download that binds identifiers one by one appends in O(1).
            let length = Swift.max(raw + 1, Swift.min(byModel.count * 2, Int(Self.denseLimit)))
            byModel.append(contentsOf: repeatElement(0, count: length - byModel.count))
        }
        byModel[raw] = number
    }

    /// Adds an entry whose name is not in the table; returns its index.
    @discardableResult
    private mutating func insert(_ entry: Entry) -> Int {
        if (entries.count + 1) * 4 > slots.count * 3 { grow() }
        let slot = find(entry.name).slot
        entries.append(entry)
        slots[slot] = UInt32(entries.count)
        return entries.count - 1
    }

    private mutating func grow() {
        let count = Swift.max(16, slots.count * 2)
        slots = Array(repeating: 0, count: count)
        let mask = count - 1
        for (index, entry) in entries.enumerated() { // tidy: ordered slots are found by hash, not order
            var slot = Self.hash(entry.name) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(index + 1)
        }
    }

    /// Removes an entry that holds neither a model nor a change tag; the last entry moves
    /// into its place.
    private mutating func remove(at index: Int) {
        let mask = slots.count - 1
        // Backward-shift deletion: the entries after the hole in its run move back when their
        // home slot is not between the hole and where they are.
        var hole = find(entries[index].name).slot
        var slot = hole
        while true {
            slot = (slot + 1) & mask
            let number = slots[slot]
            if number == 0 { break }
            let home = Self.hash(entries[Int(number) - 1].name) & mask
            if (slot &- home) & mask >= (slot &- hole) & mask {
                slots[hole] = number
                hole = slot
            }
        }
        slots[hole] = 0
        let last = entries.count - 1
        if index != last {
            let moved = entries[last]
            var movedSlot = Self.hash(moved.name) & mask
            while slots[movedSlot] != UInt32(last + 1) { movedSlot = (movedSlot + 1) & mask }
            slots[movedSlot] = UInt32(index + 1)
            if let model = moved.modelID { setEntryNumber(UInt32(index + 1), of: model) }
            entries[index] = moved
        }
        entries.removeLast()
    }
}
