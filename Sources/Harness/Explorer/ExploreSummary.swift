/// The seeds a sweep runs: a closed range, optionally one shard of it.
///
/// Seed `s` belongs to shard `i` of `n` when `s % n == i - 1` (interleaved, so every shard
/// gets a fair share of any range; `--shard 1/4 … --shard 4/4` cover a range exactly once).
public struct SeedSelection: Hashable, Sendable, Codable, CustomStringConvertible {
    public var from: UInt64
    public var to: UInt64
    /// 1-based shard index and shard count; nil for the whole range.
    public var shardIndex: Int?
    public var shardCount: Int?

    public init(from: UInt64, to: UInt64, shardIndex: Int? = nil, shardCount: Int? = nil) {
        precondition(from <= to, "an empty seed range")
        precondition((shardIndex == nil) == (shardCount == nil), "a shard needs index and count")
        if let shardIndex, let shardCount {
            precondition(shardCount >= 1 && (1...shardCount).contains(shardIndex), "bad shard")
        }
        self.from = from
        self.to = to
        self.shardIndex = shardIndex
        self.shardCount = shardCount
    }

    /// Whether a seed of the range belongs to this selection's shard.
    public func contains(_ seed: UInt64) -> Bool {
        guard (from...to).contains(seed) else { return false }
        guard let shardIndex, let shardCount else { return true }
        return seed % UInt64(shardCount) == UInt64(shardIndex - 1)
    }

    /// The selected seeds in increasing order.
    public var seeds: [UInt64] {
        guard let shardIndex, let shardCount else { return Array(from...to) }
        let count = UInt64(shardCount)
        let wanted = UInt64(shardIndex - 1)
        let first = from + (wanted + count - from % count) % count
        guard first <= to else { return [] }
        return Array(stride(from: first, through: to, by: Int(count)))
    }

    public var description: String {
        let range = from == to ? "seed \(from)" : "seeds \(from)...\(to)"
        guard let shardIndex, let shardCount else { return range }
        return "\(range), shard \(shardIndex)/\(shardCount)"
    }
}

/// A count per weakness or per check, as a sorted list (stable in JSON and text).
public struct NamedCount: Hashable, Sendable, Codable {
    public var name: String
    public var runs: Int

    public init(name: String, runs: Int) {
        self.name = name
        self.runs = runs
    }
}

/// What a sweep found, in numbers: the table `synclab explore` prints and `--json` writes,
/// and what `synclab explore merge` adds up across shards.
public struct ExploreSummary: Hashable, Sendable, Codable {
    public var file: String
    /// The source's digest: merging refuses results of different files.
    public var digest: String
    /// The selections that were run (several after a merge), in order.
    public var selections: [SeedSelection]
    public var runs: Int
    public var clean: Int
    public var explained: Int
    public var newFindings: Int
    public var budgetFailures: Int
    /// Explained runs per weakness that explained one of their violations.
    public var explainedBy: [NamedCount]
    /// Runs in which each weakness fired (violation or not).
    public var observed: [NamedCount]
    /// Unexplained violations per check (runs that had one).
    public var findingsByCheck: [NamedCount]
    public var newFindingSeeds: [UInt64]
    public var budgetFailureSeeds: [UInt64]

    public init(file: String, digest: String, selection: SeedSelection, results: [SeedResult]) {
        self.file = file
        self.digest = digest
        selections = [selection]
        runs = results.count
        clean = results.filter { $0.outcome == .clean }.count
        explained = results.filter { $0.outcome == .explained }.count
        newFindings = results.filter { $0.outcome == .newFinding }.count
        budgetFailures = results.filter { $0.outcome == .budgetFailure }.count
        explainedBy = Self.count(results.filter { $0.outcome == .explained }.map(\.explainedBy))
        observed = Self.count(results.map(\.firedWeaknesses))
        findingsByCheck = Self.count(results.map { result in
            Array(Set(result.violations.filter { !$0.isExplained }.map(\.check.rawValue)))
        })
        newFindingSeeds = results.filter { $0.outcome == .newFinding }.map(\.seed).sorted()
        budgetFailureSeeds = results.filter { $0.outcome == .budgetFailure }.map(\.seed).sorted()
    }

    /// Whether the sweep found something no known limitation explains.
    public var hasFindings: Bool { newFindings + budgetFailures > 0 }

    private static func count(_ names: [[String]]) -> [NamedCount] {
        var counts: [String: Int] = [:]
        for list in names {
            for name in list { counts[name, default: 0] += 1 }
        }
        return counts.keys.sorted().map { NamedCount(name: $0, runs: counts[$0] ?? 0) }
    }

    /// Why two summaries cannot be merged.
    public struct MergeError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Adds up shard summaries of one file; refuses other files and overlapping selections.
    public static func merge(_ parts: [ExploreSummary]) throws(MergeError) -> ExploreSummary {
        guard var merged = parts.first else { throw MergeError(description: "nothing to merge") }
        for part in parts.dropFirst() {
            guard part.digest == merged.digest, part.file == merged.file else {
                throw MergeError(description: "'\(part.file)' (digest \(part.digest)) is not "
                    + "'\(merged.file)' (digest \(merged.digest))")
            }
            for selection in part.selections {
                if let clash = merged.selections.first(where: { $0.overlaps(selection) }) {
                    throw MergeError(description: "\(selection) overlaps \(clash)")
                }
                merged.selections.append(selection)
            }
            merged.runs += part.runs
            merged.clean += part.clean
            merged.explained += part.explained
            merged.newFindings += part.newFindings
            merged.budgetFailures += part.budgetFailures
            merged.explainedBy = add(merged.explainedBy, part.explainedBy)
            merged.observed = add(merged.observed, part.observed)
            merged.findingsByCheck = add(merged.findingsByCheck, part.findingsByCheck)
            merged.newFindingSeeds = (merged.newFindingSeeds + part.newFindingSeeds).sorted()
            merged.budgetFailureSeeds = (merged.budgetFailureSeeds + part.budgetFailureSeeds)
                .sorted()
        }
        merged.selections.sort { ($0.from, $0.shardIndex ?? 0) < ($1.from, $1.shardIndex ?? 0) }
        return merged
    }

    private static func add(_ left: [NamedCount], _ right: [NamedCount]) -> [NamedCount] {
        var counts: [String: Int] = [:]
        for entry in left + right { counts[entry.name, default: 0] += entry.runs }
        return counts.keys.sorted().map { NamedCount(name: $0, runs: counts[$0] ?? 0) }
    }
}

extension SeedSelection {
    /// Whether the two selections share a seed.
    func overlaps(_ other: SeedSelection) -> Bool {
        guard from <= other.to, other.from <= to else { return false }
        if let index = shardIndex, let count = shardCount,
            let otherIndex = other.shardIndex, let otherCount = other.shardCount,
            count == otherCount
        {
            return index == otherIndex
        }
        // Different shapes: look for a shared seed in the common range (bounded scan).
        let low = max(from, other.from)
        let high = min(to, other.to)
        var seed = low
        var scanned = 0
        while seed <= high && scanned < 1_000_000 {
            if contains(seed) && other.contains(seed) { return true }
            if seed == UInt64.max { break }
            seed += 1
            scanned += 1
        }
        return false
    }
}
