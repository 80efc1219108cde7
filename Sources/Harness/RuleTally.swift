/// The engine's rules that fired in a run: one set per device index, and the cloud's after
/// them.
struct RuleTally {
    /// Each set is sized for this many rules from the start: grown from empty, it would be
    /// rehashed several times a seed (every rule hashed again each time).
    static let capacity = 32
    /// How many of its latest rule lists `note` keeps per set.
    static let recentListCount = 8

    /// Rules fired, per device index; the last index stands for the cloud.
    private(set) var fired: [Set<String>] = []
    /// The rule lists `note` added lately, `recentListCount` per set: an engine names its rules
    /// with literal arrays, the same storage trace after trace, and a list stored in one of
    /// these is in the set already, so its rules are not hashed again. The lists are kept
    /// (retained), so no other list can be given their storage meanwhile.
    private var recentLists: [[String]] = []
    /// Where `note` keeps the next list it adds, per set.
    private var nextRecentList: [Int] = []

    /// Adds the set of the next device (or, last, the cloud's).
    mutating func addSet() {
        fired.append(Set(minimumCapacity: Self.capacity))
    }

    /// Makes room for the recent lists of every set added; called once, after the last.
    mutating func sealSets() {
        recentLists = Array(repeating: [], count: fired.count * Self.recentListCount)
        nextRecentList = Array(repeating: 0, count: fired.count)
    }

    /// Notes that the rules fired on the set at `index`.
    mutating func note(_ rules: [String], at index: Int) {
        guard !rules.isEmpty else { return }
        let first = index * Self.recentListCount
        for slot in first..<(first + Self.recentListCount)
        where Self.sameStorage(recentLists[slot], rules) {
            return
        }
        for rule in rules { fired[index].insert(rule) }
        recentLists[first + nextRecentList[index]] = rules
        nextRecentList[index] = (nextRecentList[index] + 1) % Self.recentListCount
    }

    /// Whether two non-empty lists share their storage (then they are equal).
    private static func sameStorage(_ kept: [String], _ rules: [String]) -> Bool {
        guard !kept.isEmpty else { return false }
        return kept.withUnsafeBufferPointer { keptBuffer in
            rules.withUnsafeBufferPointer { $0.baseAddress == keptBuffer.baseAddress }
        }
    }
}
