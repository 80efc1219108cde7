/// The engine's rules that fired in a run: one set per device index, and the cloud's after
/// them.
struct RuleTally {
    /// Each set is sized for this many rules from the start: grown from empty, it would be
    /// rehashed several times a seed (every rule hashed again each time).
    static let capacity = 32
    /// How many rule lists `note` keeps per set, one in each slot its storage address picks.
    static let keptListCount = 32

    /// Rules fired, per device index; the last index stands for the cloud.
    private(set) var fired: [Set<String>] = []
    /// Rule lists `note` added, `keptListCount` per set: an engine names its rules with literal
    /// arrays, the same storage trace after trace, and a list stored in one of these is in the
    /// set already, so its rules are not hashed again. The lists are kept (retained), so no
    /// other list can be given their storage meanwhile.
    private var keptLists: [[String]] = []
    /// The storage address of each kept list (0 for none), compared without reading the list.
    private var keptAddresses: [UInt] = []

    /// Adds the set of the next device (or, last, the cloud's).
    mutating func addSet() {
        fired.append(Set(minimumCapacity: Self.capacity))
    }

    /// Makes room for the kept lists of every set added; called once, after the last.
    mutating func sealSets() {
        keptLists = Array(repeating: [], count: fired.count * Self.keptListCount)
        keptAddresses = Array(repeating: 0, count: fired.count * Self.keptListCount)
    }

    /// Notes that the rules fired on the set at `index`.
    mutating func note(_ rules: [String], at index: Int) {
        guard !rules.isEmpty else { return }
        let address = rules.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        // One slot per address (Fibonacci hashing of the address's bits): a list met before
        // is found at once, where a scan of the latest few missed the lists between.
        let slot = index * Self.keptListCount
            + Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 59)
        if keptAddresses[slot] == address { return }
        for rule in rules { fired[index].insert(rule) }
        keptLists[slot] = rules
        keptAddresses[slot] = address
    }
}
