import CloudSim

/// A set of record names that is only asked (`contains`), filled and emptied, never walked:
/// a list while it holds a few names, a hashed set beyond.
///
/// A run's uploads try each name once (`SyncRun.attempted`): a run holds a few names,
/// usually two or three. As a `Set<String>` each name was hashed with `Hasher` (SipHash over
/// its 36 bytes) on every insert and every lookup, about 330 instructions a lookup and 600 an
/// insert, and the set cost about 700 to make (issue 19). Listed, each name is filed with its
/// `RecordNameHash` (its bytes read eight at a time), computed once per lookup and compared
/// as a word: comparing the names themselves cost about 120 instructions for two that differ.
/// Past `listedAtMost` names the list's linear search would grow with the run, so the names
/// move into a set of `HashedRecordName`s (CloudSim's name with its hash). Nothing is ever read out of it: its order never
/// shows.
struct RecordNameSet: Sendable {
    /// The names, each with its hash, while there are at most `listedAtMost` of them, in no
    /// particular order.
    private var listed: [HashedRecordName] = []
    /// All the names once there were more (`listed` is then empty).
    private var hashed: Set<HashedRecordName>?

    /// Up to this many names, they are searched in a list rather than hashed into a set. A
    /// look at a listed name compares a word per name; past 8 the set (about 1,100
    /// instructions to make, 440 an insert) still cost more than scanning 16 words, for the
    /// runs of the explorer's swarm that try 9 to 16 names (0.37 M instructions per 20 seeds).
    static let listedAtMost = 16

    init() {}

    func contains(_ name: String) -> Bool {
        if let hashed { return hashed.contains(HashedRecordName(name)) }
        // (An empty list, the first look of most runs, hashes nothing.)
        guard !listed.isEmpty else { return false }
        return listed.contains(HashedRecordName(name))
    }

    mutating func insert(_ name: String) {
        let key = HashedRecordName(name)
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
