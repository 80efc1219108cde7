import Engines
import Harness
import Scenario
import SyncContract
import Testing

/// The bundled sweeps of `Scenarios/explore/` find the known limitations by chance within
/// the seed ranges docs/EXPLORER.md gives: each test wants a seed where the rule fired and
/// explained a violation (LIM-5: fired; its waits leave nothing broken once healed).
@Suite struct ExplorerSweepTests {
    @Test(arguments: ExplorerFixtures.bundledFiles)
    func bundledChaosFilesCheckClean(_ name: String) throws {
        let explorer = try ExplorerFixtures.bundled(name)
        #expect(explorer.file.hasSuffix(name))
    }

    @Test func thereIsASweepPerLimitation() {
        let files = ExplorerFixtures.bundledFiles
        for number in 1...6 {
            #expect(files.contains { $0.hasPrefix("lim-\(number)-") }, "no sweep for LIM-\(number)")
        }
        #expect(files.contains("swarm.chaos"))
    }

    /// Runs seeds until one observes the rule and has a violation it explains.
    static func firstSeed(explaining rule: String, in name: String, seeds: ClosedRange<UInt64>)
        throws -> UInt64?
    {
        let explorer = try ExplorerFixtures.bundled(name)
        return seeds.first { seed in
            let result = explorer.run(seed: seed)
            return result.firedWeaknesses.contains(rule) && result.explainedBy.contains(rule)
        }
    }

    @Test func lim1IsFoundWithinTenSeeds() throws {
        let seed = try Self.firstSeed(
            explaining: "LIM-1", in: "lim-1-edit-meets-deletion.chaos", seeds: 1...10)
        #expect(seed != nil)
    }

    @Test func lim4IsFoundWithinFiveSeeds() throws {
        let seed = try Self.firstSeed(
            explaining: "LIM-4", in: "lim-4-expired-tokens.chaos", seeds: 1...5)
        #expect(seed != nil)
    }

    @Test func lim5IsObservedWithinTenSeeds() throws {
        let explorer = try ExplorerFixtures.bundled("lim-5-parent-rejected.chaos")
        let seed = (UInt64(1)...10).first { explorer.run(seed: $0).firedWeaknesses.contains("LIM-5") }
        #expect(seed != nil)
    }

    @Test func lim3IsFoundWithinTenSeeds() throws {
        let seed = try Self.firstSeed(
            explaining: "LIM-3", in: "lim-3-move-and-delete.chaos", seeds: 1...10)
        #expect(seed != nil)
    }

    /// LIM-6 happens in its sweep; the heal then repairs what it lost in most runs, so the
    /// test asks for the race itself, like LIM-5.
    @Test func lim6IsObservedWithinFifteenSeeds() throws {
        let explorer = try ExplorerFixtures.bundled("lim-6-overflow-asset.chaos")
        let seed = (UInt64(1)...15).first { explorer.run(seed: $0).firedWeaknesses.contains("LIM-6") }
        #expect(seed != nil)
    }

    @Test func lim2IsFoundWithinTwentySeeds() throws {
        let seed = try Self.firstSeed(
            explaining: "LIM-2", in: "lim-2-identity-race.chaos", seeds: 1...20)
        #expect(seed != nil)
    }

    /// Issue 19: seeds of each bundled sweep that found something no rule explained before
    /// the triage (docs/EXPLORER.md §6, the triage table) end clean or explained now, each
    /// violation by a rule of the catalogue (a fixed defect, a LIM, or a discovered race).
    static let triagedSeeds: [(String, [UInt64])] = [
        ("lim-1-edit-meets-deletion.chaos", [97, 245, 271]),
        ("lim-2-identity-race.chaos", [2, 48, 65]),
        ("lim-3-move-and-delete.chaos", [11, 61, 63, 88, 99]),
        ("lim-4-expired-tokens.chaos", [12, 79]),
        ("lim-5-parent-rejected.chaos", [6, 14]),
        ("lim-6-overflow-asset.chaos", [7, 11]),
        ("swarm.chaos", [28, 34, 214]),
    ]

    @Test(arguments: triagedSeeds)
    func triagedSeedsHaveNoUnexplainedFinding(_ name: String, _ seeds: [UInt64]) throws {
        let explorer = try ExplorerFixtures.bundled(name)
        var explained = 0
        for seed in seeds {
            let result = explorer.run(seed: seed)
            #expect(result.outcome == .clean || result.outcome == .explained,
                    "\(name) seed \(seed): \(result.violations.filter { !$0.isExplained }.map(\.message))")
            if result.outcome == .explained { explained += 1 }
        }
        // Where the triage named a rule (a LIM, DR-1), at least one of the seeds is explained
        // by it; where it fixed a defect, the seeds simply end clean.
        // (lim-2's seeds end clean since a tag deleted and made again is uploaded in the
        // same synchronization; LIM-2 is found in that sweep all the same, above.)
        let explainedByARule = ["lim-3-move-and-delete.chaos", "lim-4-expired-tokens.chaos",
                                "swarm.chaos"]
        if explainedByARule.contains(name) {
            #expect(explained > 0, "\(name): none of \(seeds) has an explained violation any more")
        }
    }

    /// DR-1 is found by chance in the sweep that moves notes between folders.
    @Test func dr1IsFoundInTheLim3Sweep() throws {
        let seed = try Self.firstSeed(
            explaining: "DR-1", in: "lim-3-move-and-delete.chaos", seeds: 11...11)
        #expect(seed == 11)
    }
}
