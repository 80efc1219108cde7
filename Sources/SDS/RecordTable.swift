import CloudSim
import LocalStore

/// Every record name the `sds` engine knows: the model bound to it (SDSSyncData's bindings)
/// and the change tag of its record as last seen from the server, in one table keyed by name.
///
/// One table, not three maps (`[ModelID: String]`, its reverse `[String: ModelID]` and
/// `[String: String]` of change tags) that would hash the same name up to three times and
/// hold it in two hash tables (docs/ENGINE.md). Here a name is one entry of a dense array
/// (name, model, change tag); CloudSim's `RecordNameIndex` (8-byte slots: entry number and the
/// name's 32-bit hash) finds an entry by name (one hash of the name per lookup), and a dense
/// array of 4-byte entry numbers by model identifier finds a model's entry without hashing
/// (the store hands identifiers out densely from 1; identifiers beyond `denseLimit` go to a
/// small map). A second `RecordNameIndex`, filed by its name's identity (the `String`'s two
/// words, `identity(_:)`), finds an entry before any hashing: most names asked are the entry's
/// own string.
///
/// The arrays live in raw memory owned by one object (`Buffer`), shared by copies until one of them
/// changes (copy on write). A lookup then retains that object alone: with three arrays and a map as
/// the struct's own fields, every lookup through the sync data's storage would copy the struct out
/// of it, four retains and four releases. A slot of the name index keeps its name's hash, so a
/// probe compares names only where the hashes agree, and growing never hashes a name again.
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

    /// The table's memory, shared by copies until one of them changes.
    private var buffer: Buffer

    /// Models bound to a name.
    public var boundCount: Int { buffer.boundCount }

    public init() {
        buffer = Buffer()
    }

    // MARK: Reading

    /// The record name bound to the model.
    public func name(of model: ModelID) -> String? {
        buffer.entryIndex(of: model).map { buffer.entries[$0].name }
    }

    /// Whether the model is bound to the record name, read in place (no name copied out).
    public func isBound(_ model: ModelID, to name: String) -> Bool {
        guard let index = buffer.entryIndex(of: model) else { return false }
        return buffer.entries[index].name == name
    }

    /// The model bound to the record name.
    ///
    /// Inlined, so that a caller reading the table out of another object's field (the sync
    /// data's storage) finds an identical name without a call, around which it would retain
    /// and release the table's memory; a name found otherwise takes the call.
    @inline(__always)
    public func model(named name: String) -> ModelID? {
        if let index = buffer.identicalEntry(Self.identity(name)) {
            return buffer.entries[index].modelID
        }
        return hashedModel(named: name)
    }

    /// `model(named:)` of a name no entry holds this very string of: found by its hash.
    @inline(never)
    func hashedModel(named name: String) -> ModelID? {
        model(named: name, hash: Self.hash(name))
    }

    /// `model(named:)`'s first half: whether an entry holds this very string, and its model.
    ///
    /// In two halves for a reader that holds the table in another object's field (the sync data's
    /// storage, `SDSSyncData.model(forRecord:)`): a call to `hashedModel` from there retains and
    /// releases the table's memory around it (most names that miss this half are names the table
    /// does not hold, asked by the checkers), while the name hashed first and the table read after
    /// needs neither.
    @inline(__always)
    func identicalModel(named name: String) -> (found: Bool, model: ModelID?) {
        guard let index = buffer.identicalEntry(Self.identity(name)) else { return (false, nil) }
        return (true, buffer.entries[index].modelID)
    }

    /// `model(named:)`'s second half: the model of the name whose hash (`hash(_:)`) is given.
    @inline(__always)
    func model(named name: String, hash: Int) -> ModelID? {
        buffer.find(name, hash: hash).entry.flatMap { buffer.entries[$0].modelID }
    }

    /// The change tag of the record as last seen from the server.
    public func changeTag(of name: String) -> String? {
        buffer.entryIndex(named: name).flatMap { buffer.entries[$0].changeTag }
    }

    /// Both at once, for a reader that keeps them (PageJournal).
    public func entry(named name: String) -> (model: ModelID?, changeTag: String?)? {
        buffer.entryIndex(named: name).map {
            (buffer.entries[$0].modelID, buffer.entries[$0].changeTag)
        }
    }

    /// The models bound to a name, in identifier order (no sorting: the dense array's order).
    public var boundModels: [ModelID] {
        var result: [ModelID] = []
        result.reserveCapacity(boundCount)
        for raw in 0..<buffer.byModelCount where buffer.byModel[raw] != 0 {
            result.append(ModelID(UInt64(raw)))
        }
        result.append(contentsOf: buffer.outliers.keys.sorted())
        return result
    }

    /// The record names bound to a model, sorted.
    public var sortedBoundNames: [String] {
        boundNames { _ in true }.sorted()
    }

    /// The record names bound to a model that pass `isIncluded`, in the table's order (its
    /// insertion history, not sorted): a caller that keeps a few sorts only those.
    public func boundNames(where isIncluded: (String) -> Bool) -> [String] {
        var names: [String] = []
        for index in 0..<buffer.count
        where buffer.entries[index].model != 0 && isIncluded(buffer.entries[index].name) {
            names.append(buffer.entries[index].name)
        }
        return names
    }

    // MARK: Changing

    /// Copies the memory before a change when another table shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
    }

    /// Binds a model to its record name; a name or model bound elsewhere before is unbound
    /// from it (a change tag stays with its name).
    public mutating func bind(_ model: ModelID, to name: String) {
        precondition(model.rawValue != UInt64.max, "model identifier \(model) is out of range")
        makeUnique()
        // Most names bound are the very string of an entry (the download noted its change
        // tag first): found by identity, the name's bytes are not hashed.
        let identity = Self.identity(name)
        if let index = buffer.identicalEntry(identity) {
            if buffer.entries[index].model == model.rawValue &+ 1 { return }
            // The model's previous name loses it (and goes if it holds nothing else), which
            // can move this entry: found again, still by identity.
            buffer.unbind(model)
            guard let moved = buffer.identicalEntry(identity) else {
                preconditionFailure("sds: a record name's entry went with another binding")
            }
            bindEntry(at: moved, to: model)
            return
        }
        let hash = Self.hash(name)
        if let index = buffer.find(name, hash: hash).entry,
           buffer.entries[index].model == model.rawValue &+ 1 { return }
        // The model's previous name loses it (and goes if it holds nothing else).
        buffer.unbind(model)
        let index: Int
        if let existing = buffer.find(name, hash: hash).entry {
            index = existing
        } else {
            index = buffer.insert(Entry(name: name, model: 0, changeTag: nil), hash: hash)
        }
        bindEntry(at: index, to: model)
    }

    /// `bind`'s last step: the entry at `index` (its previous model, if any, unbound from it)
    /// takes the model, which is bound nowhere else.
    private mutating func bindEntry(at index: Int, to model: ModelID) {
        if let other = buffer.entries[index].modelID {
            buffer.setEntryNumber(0, of: other)
            buffer.boundCount -= 1
        }
        buffer.entries[index].model = model.rawValue &+ 1
        buffer.setEntryNumber(UInt32(index + 1), of: model)
        buffer.boundCount += 1
    }

    /// Forgets a model's binding (its name's change tag stays).
    public mutating func unbind(_ model: ModelID) {
        guard buffer.entryIndex(of: model) != nil else { return }
        makeUnique()
        buffer.unbind(model)
    }

    /// Sets (or with nil, forgets) the change tag of a record.
    public mutating func setChangeTag(_ tag: String?, for name: String) {
        // The name is hashed at most once: for the lookup and, when absent, for its insert.
        var hash: Int?
        var found = buffer.identicalEntry(Self.identity(name))
        if found == nil {
            let nameHash = Self.hash(name)
            hash = nameHash
            found = buffer.find(name, hash: nameHash).entry
        }
        guard found != nil || tag != nil else { return }
        makeUnique()
        if let index = found {
            buffer.entries[index].changeTag = tag
            if tag == nil && buffer.entries[index].model == 0 { buffer.remove(at: index) }
        } else {
            buffer.insert(Entry(name: name, model: 0, changeTag: tag),
                          hash: hash ?? Self.hash(name))
        }
    }

    /// Forgets every change tag; the bindings stay.
    public mutating func removeAllChangeTags() {
        guard (0..<buffer.count).contains(where: { buffer.entries[$0].changeTag != nil }) else {
            return
        }
        var kept = RecordTable()
        for model in boundModels { // tidy: ordered identifier order
            if let name = name(of: model) { kept.bind(model, to: name) }
        }
        self = kept
    }

    // MARK: Equality

    public static func == (lhs: RecordTable, rhs: RecordTable) -> Bool {
        if lhs.buffer === rhs.buffer { return true }
        guard lhs.buffer.count == rhs.buffer.count, lhs.boundCount == rhs.boundCount else {
            return false
        }
        for index in 0..<lhs.buffer.count {
            let entry = lhs.buffer.entries[index]
            guard let other = rhs.buffer.find(entry.name, hash: hash(entry.name)).entry,
                  rhs.buffer.entries[other] == entry else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Independent of the entries' order, as equality is.
        var sum = 0
        for index in 0..<buffer.count {
            var entryHasher = Hasher()
            entryHasher.combine(buffer.entries[index])
            sum &+= entryHasher.finalize()
        }
        hasher.combine(buffer.count)
        hasher.combine(sum)
    }

    // MARK: The hash of a name

    /// The slot hash of a name: the cloud's record-name hash (`RecordNameHash`, CloudSim),
    /// consistent with `String`'s `==` and about a tenth of what `Hasher` takes for an ASCII
    /// name; the same in every process except for names no ASCII string is equivalent to,
    /// and the slots' order never shows (lookups only).
    @inline(__always)
    static func hash(_ name: String) -> Int { RecordNameHash.hash(name) }

    // MARK: The identity of a name

    /// A name's two words as they are, which find the very string an entry holds.
    ///
    /// Most names asked of the table are copies of the entry's own `String` (the record name a
    /// download bound is the one the checkers and the engine ask with later), so equal words answer
    /// a lookup without hashing the name's bytes, most of a lookup's cost. Equal words are the same
    /// string: the same inline bytes, or the same storage object, which the entry keeps alive and
    /// no one changes while it is shared. Different words prove nothing (equal strings can live in
    /// different storage): the lookup then hashes the name (`find`). A `String` is two words on the
    /// 64-bit platforms SyncLab runs on (`unsafeBitCast` checks the size).
    @inline(__always)
    static func identity(_ name: String) -> Identity {
        let words = unsafeBitCast(name, to: (UInt64, UInt64).self)
        return Identity(first: words.0, second: words.1)
    }

    /// The two words of a `String` (`identity(_:)`), and where they go in the identity index.
    struct Identity: Equatable {
        let first: UInt64
        let second: UInt64

        /// Mixes both words: storage addresses share their low and high bits.
        @inline(__always)
        var home: Int {
            var state = (first &* 0x9E37_79B9_7F4A_7C15) ^ second
            state &*= 0xFF51_AFD7_ED55_8CCD
            return Int(truncatingIfNeeded: state ^ state &>> 29)
        }
    }
}

extension RecordTable {
    /// The entries, the index by name and the index by model, in memory this object owns.
    ///
    /// Changed only through a table that holds the only reference (`makeUnique`), so no two
    /// accesses overlap; readers see raw memory, which Swift neither retains nor checks.
    final class Buffer: @unchecked Sendable {
        private(set) var entries: UnsafeMutablePointer<Entry>
        private(set) var count = 0
        private var capacity = 0
        /// The entries by their names' hash (`RecordTable.hash`), CloudSim's shared index.
        /// Unchecked: changed only while unshared (`makeUnique`), never during a read of it.
        @exclusivity(unchecked) private var nameIndex = RecordNameIndex()
        /// The same entries by their names' identity (`RecordTable.identity`), its `home` as
        /// the hash. An entry's name never changes, so neither does its place here.
        @exclusivity(unchecked) private var identityIndex = RecordNameIndex()
        /// By model raw value: the number + 1 of the entry bound to it, 0 for none.
        private(set) var byModel: UnsafeMutablePointer<UInt32>
        private(set) var byModelCount = 0
        private(set) var outliers: [ModelID: UInt32] = [:]
        var boundCount = 0

        init() {
            // Never read while their counts are 0: placeholders, not allocations.
            entries = UnsafeMutablePointer(bitPattern: MemoryLayout<Entry>.alignment)
                .unsafelyUnwrapped
            byModel = UnsafeMutablePointer(bitPattern: MemoryLayout<UInt32>.alignment)
                .unsafelyUnwrapped
        }

        deinit {
            if capacity > 0 {
                entries.deinitialize(count: count)
                entries.deallocate()
            }
            nameIndex.deallocate()
            identityIndex.deallocate()
            if byModelCount > 0 { byModel.deallocate() }
        }

        /// A buffer holding the same entries and indexes (for a table about to change).
        func copy() -> Buffer {
            let copy = Buffer()
            if capacity > 0 {
                copy.entries = .allocate(capacity: capacity)
                copy.entries.initialize(from: entries, count: count)
                copy.capacity = capacity
                copy.count = count
            }
            copy.nameIndex = nameIndex.copy()
            copy.identityIndex = identityIndex.copy()
            if byModelCount > 0 {
                copy.byModel = .allocate(capacity: byModelCount)
                copy.byModel.initialize(from: byModel, count: byModelCount)
                copy.byModelCount = byModelCount
            }
            copy.outliers = outliers
            copy.boundCount = boundCount
            return copy
        }

        /// The entry holding the name: the one holding this very string if there is one
        /// (no hashing of the name's bytes), else the one `find` finds by the name's hash.
        @inline(__always)
        func entryIndex(named name: String) -> Int? {
            identicalEntry(RecordTable.identity(name))
                ?? find(name, hash: RecordTable.hash(name)).entry
        }

        /// The entry whose name has this identity, if any.
        @inline(__always)
        func identicalEntry(_ identity: Identity) -> Int? {
            guard var probe = identityIndex.probe(identity.home) else { return nil }
            while let entry = identityIndex.next(&probe) {
                if RecordTable.identity(entries[entry].name) == identity { return entry }
            }
            return nil
        }

        /// The entry holding the name, and the slot where it is (or where it would go).
        @inline(__always)
        func find(_ name: String, hash: Int) -> (slot: Int, entry: Int?) {
            guard var probe = nameIndex.probe(hash) else { return (-1, nil) }
            while let entry = nameIndex.next(&probe) {
                if entries[entry].name == name { return (probe.slot, entry) }
            }
            return (probe.slot, nil)
        }

        @inline(__always)
        func entryIndex(of model: ModelID) -> Int? {
            let number: UInt32
            if model.rawValue < RecordTable.denseLimit {
                let raw = Int(model.rawValue)
                guard raw < byModelCount else { return nil }
                number = byModel[raw]
            } else {
                number = outliers[model] ?? 0
            }
            return number == 0 ? nil : Int(number) - 1
        }

        func setEntryNumber(_ number: UInt32, of model: ModelID) {
            guard model.rawValue < RecordTable.denseLimit else {
                outliers[model] = number == 0 ? nil : number
                return
            }
            let raw = Int(model.rawValue)
            if raw >= byModelCount {
                guard number != 0 else { return }
                // Doubling, so a download that binds identifiers one by one grows in O(1).
                let length = Swift.max(
                    raw + 1, Swift.min(byModelCount * 2, Int(RecordTable.denseLimit)))
                let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: length)
                grown.initialize(from: byModel, count: byModelCount)
                (grown + byModelCount).initialize(repeating: 0, count: length - byModelCount)
                if byModelCount > 0 { byModel.deallocate() }
                byModel = grown
                byModelCount = length
            }
            byModel[raw] = number
        }

        /// Forgets a model's binding; its entry goes if it holds no change tag either.
        func unbind(_ model: ModelID) {
            guard let index = entryIndex(of: model) else { return }
            setEntryNumber(0, of: model)
            boundCount -= 1
            entries[index].model = 0
            if entries[index].changeTag == nil { remove(at: index) }
        }

        /// Adds an entry whose name is not in the table; returns its index.
        ///
        /// The entry is consumed, so it moves into the table's memory: borrowed, it was copied
        /// there (a retain of each string) and then released by the caller.
        @discardableResult
        func insert(_ entry: consuming Entry, hash: Int) -> Int {
            if count == capacity { growEntries() }
            nameIndex.insert(count, hash: hash, count: count + 1)
            (entries + count).initialize(to: entry)
            identityIndex.insert(
                count, hash: RecordTable.identity(entries[count].name).home, count: count + 1)
            count += 1
            return count - 1
        }

        private func growEntries() {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: Swift.max(16, capacity * 2))
            if capacity > 0 {
                grown.moveInitialize(from: entries, count: count)
                entries.deallocate()
            }
            entries = grown
            capacity = Swift.max(16, capacity * 2)
        }

        /// Removes an entry that holds neither a model nor a change tag; the last entry moves
        /// into its place.
        func remove(at index: Int) {
            let last = count - 1
            let lastHash = index == last ? 0 : RecordTable.hash(entries[last].name)
            nameIndex.remove(
                at: nameIndex.slot(of: index, hash: RecordTable.hash(entries[index].name)),
                movingLast: last, lastHash: lastHash)
            let identityHome = RecordTable.identity(entries[index].name).home
            identityIndex.remove(
                at: identityIndex.slot(of: index, hash: identityHome), movingLast: last,
                lastHash: RecordTable.identity(entries[last].name).home)
            if index != last {
                if let model = entries[last].modelID {
                    setEntryNumber(UInt32(index + 1), of: model)
                }
                entries[index] = (entries + last).move()
            } else {
                (entries + last).deinitialize(count: 1)
            }
            count -= 1
        }
    }
}
