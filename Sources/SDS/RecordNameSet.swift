import CloudSim

/// A set of record names that is only asked (`contains`), filled and emptied, never walked:
/// a list while it holds a few names, a hashed set beyond.
///
/// A run's uploads try each name once (`UploadRun.attempted`): a run holds a few names,
/// usually two or three. A `Set<String>` would cost an allocation to make and hash each name
/// with `Hasher` (SipHash over every byte) on every insert and every lookup. Listed, each name
/// is filed with its `RecordNameHash` (its bytes read eight at a time), computed once per
/// lookup and compared as a word, cheaper than comparing the names themselves. Past
/// `listedAtMost` names the list's linear search would grow with the run, so the names move
/// into a set of `HashedRecordName`s (CloudSim's name with its hash). Nothing is ever read
/// out of it: its order never shows.
struct RecordNameSet: Sendable {
    /// The names, each with its hash, while there are at most `listedAtMost` of them, in no
    /// particular order.
    private var listed: [HashedRecordName] = []
    /// All the names once there were more (`listed` is then empty).
    private var hashed: Set<HashedRecordName>?

    /// Up to this many names, they are searched in a list rather than hashed into a set. A
    /// look at a listed name compares a word per name: scanning this many words still costs
    /// less than making the set and hashing into it (docs/BENCH.md).
    static let listedAtMost = 16

    init() {}

    func contains(_ name: String) -> Bool {
        if let hashed { return hashed.contains(HashedRecordName(name)) }
        // (An empty list, the first look of most runs, hashes nothing.)
        guard !listed.isEmpty else { return false }
        return listed.contains(HashedRecordName(name))
    }

    mutating func insert(_ name: String) {
        insert(HashedRecordName(name))
    }

    /// `contains` of a name already hashed (asked, then inserted: hashed once).
    func contains(_ key: HashedRecordName) -> Bool {
        if let hashed { return hashed.contains(key) }
        return !listed.isEmpty && listed.contains(key)
    }

    /// `insert` of a name already hashed.
    mutating func insert(_ key: HashedRecordName) {
        if hashed != nil {
            hashed!.insert(key)
            return
        }
        guard !listed.contains(key) else { return }
        guard listed.count == Self.listedAtMost else {
            // Room for the usual few at the first name (not grown 1, 2, 4).
            if listed.isEmpty { listed.reserveCapacity(4) }
            listed.append(key)
            return
        }
        var names = Set<HashedRecordName>(minimumCapacity: 4 * Self.listedAtMost)
        for entry in listed { names.insert(entry) }
        names.insert(key)
        hashed = names
        listed = []
    }

    mutating func remove(_ name: String) {
        if hashed != nil {
            hashed!.remove(HashedRecordName(name))
        } else if !listed.isEmpty, let index = listed.firstIndex(of: HashedRecordName(name)) {
            listed.remove(at: index)
        }
    }
}
