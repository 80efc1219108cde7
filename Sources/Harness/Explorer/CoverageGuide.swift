import Kernel

/// How a guided sweep chooses its seeds' worlds (`synclab explore --swarm --guided`), after
/// AFL's corpus: the pilot (the first seeds of the range, drawn as in any sweep) is read for
/// what each run reached; a pilot seed that reached a feature no earlier one did joins the
/// corpus, weighted by how rare its features were. Every later seed either draws afresh or
/// reruns a corpus world with some of its chance redrawn (`SwarmMutation`).
///
/// The guide is a function of the pilot's results alone, and those of its seeds alone, so a
/// guided sweep gives the same results in any `--jobs` and across shards (each shard runs
/// the whole pilot and reports its own seeds of it).
public struct CoverageGuide: Sendable {
    /// A pilot seed kept for what it reached first, with its weight.
    public struct Entry: Hashable, Sendable {
        public var seed: UInt64
        public var weight: UInt64
        /// The features it was the first of the pilot to reach.
        public var newFeatures: [String]
    }

    public private(set) var corpus: [Entry] = []
    /// Features the pilot reached, with the number of its runs that reached each.
    public private(set) var reached: [(feature: String, runs: Int)] = []
    private let totalWeight: UInt64

    /// The pilot of a range of `count` seeds unless told: a fifth of it, 50 to 2,000.
    public static func pilotSize(forRangeOf count: UInt64) -> UInt64 {
        min(max(count / 5, 50), 2_000)
    }

    /// In 1,000: how many later seeds draw a world of their own rather than a mutation.
    static let freshPerMille: UInt64 = 250

    /// Reads the pilot, in seed order.
    public init(pilot: [(seed: UInt64, coverage: RunCoverage)]) {
        var runs: [String: Int] = [:]
        for entry in pilot {
            for feature in entry.coverage.features { runs[feature, default: 0] += 1 }
        }
        reached = runs.map { ($0.key, $0.value) }  // tidy: ordered sorted on the next line
            .sorted { $0.feature < $1.feature }
        var seen = Set<String>()
        var corpus: [Entry] = []
        let scale = UInt64(max(pilot.count, 1))
        for entry in pilot.sorted(by: { $0.seed < $1.seed }) {
            let new = entry.coverage.features.filter { !seen.contains($0) }
            guard !new.isEmpty else { continue }
            seen.formUnion(new)
            // Rare features weigh most: one reached by a single run weighs the pilot's size.
            let weight = entry.coverage.features.reduce(UInt64(0)) { sum, feature in
                sum + scale / UInt64(runs[feature] ?? 1)
            }
            corpus.append(Entry(seed: entry.seed, weight: max(weight, 1), newFeatures: new))
        }
        self.corpus = corpus
        totalWeight = corpus.reduce(0) { $0 + $1.weight }
    }

    /// What `seed` runs: nil for a world of its own, else the mutation of a corpus world.
    /// A function of the seed and the corpus only.
    public func mutation(for seed: UInt64) -> SwarmMutation? {
        guard totalWeight > 0 else { return nil }
        var random = RandomStreams(seed: seed).stream("guide")
        if random.chance(Self.freshPerMille, in: 1_000) { return nil }
        return mutation(&random)
    }

    private func mutation(_ random: inout Xoshiro256StarStar) -> SwarmMutation {
        var point = random.uniform(below: totalWeight)
        var parent = corpus[corpus.count - 1].seed
        for entry in corpus {
            if point < entry.weight {
                parent = entry.seed
                break
            }
            point -= entry.weight
        }
        let boost = Int(random.uniform(below: 6))
        switch random.uniform(below: 5) {
        case 0:  // Other fault strikes and targets over the same schedule.
            return SwarmMutation(parent: parent, kept: [.world, .times, .ops, .values])
        case 1:  // Other operations, in another order, at the same times.
            return SwarmMutation(parent: parent, kept: [.world, .times, .faults])
        case 2:  // The same steps under other latencies, pushes and record names.
            return SwarmMutation(parent: parent, kept: [.times, .ops, .values, .faults])
        case 3:  // The same draw with one fault four times as likely.
            return SwarmMutation(
                parent: parent, kept: [.world, .times, .ops, .values], boostedFault: boost)
        default:  // The parent's world with a schedule of its own and one fault boosted.
            return SwarmMutation(parent: parent, kept: [], boostedFault: boost)
        }
    }
}
