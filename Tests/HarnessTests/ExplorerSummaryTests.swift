import Engines
import Harness
import SyncContract
import Testing

/// Seed selections, shards, and the summary that shards merge into.
@Suite struct ExplorerSummaryTests {
    @Test(arguments: [1, 2, 3, 5])
    func shardsPartitionARange(count: Int) {
        let whole = SeedSelection(from: 7, to: 40).seeds
        var covered: [UInt64] = []
        for index in 1...count {
            let shard = SeedSelection(from: 7, to: 40, shardIndex: index, shardCount: count)
            #expect(shard.seeds.allSatisfy { $0 % UInt64(count) == UInt64(index - 1) })
            #expect(shard.seeds.allSatisfy(shard.contains))
            covered += shard.seeds
        }
        #expect(covered.sorted() == whole)
    }

    @Test func selectionsDescribeThemselves() {
        #expect(SeedSelection(from: 1, to: 100).description == "seeds 1...100")
        #expect(SeedSelection(from: 9, to: 9).description == "seed 9")
        #expect(SeedSelection(from: 1, to: 10, shardIndex: 2, shardCount: 4).description
            == "seeds 1...10, shard 2/4")
    }

    static func summary(_ selection: SeedSelection, digest: String = "d") -> ExploreSummary {
        let explorer = ExplorerFixtures.explorer(ExplorerFixtures.notes)
        let results = selection.seeds.map { explorer.run(seed: $0) }
        return ExploreSummary(file: "notes", digest: digest, selection: selection, results: results)
    }

    @Test func shardSummariesMergeIntoTheWhole() throws {
        let whole = Self.summary(SeedSelection(from: 1, to: 6))
        let first = Self.summary(SeedSelection(from: 1, to: 6, shardIndex: 1, shardCount: 2))
        let second = Self.summary(SeedSelection(from: 1, to: 6, shardIndex: 2, shardCount: 2))
        let merged = try ExploreSummary.merge([second, first])
        #expect(merged.runs == whole.runs)
        #expect(merged.clean == whole.clean)
        #expect(merged.explained == whole.explained)
        #expect(merged.newFindings == whole.newFindings)
        #expect(merged.explainedBy == whole.explainedBy)
        #expect(merged.observed == whole.observed)
        #expect(merged.findingsByCheck == whole.findingsByCheck)
        #expect(merged.newFindingSeeds == whole.newFindingSeeds)
        #expect(merged.selections.map(\.shardIndex) == [1, 2])
    }

    @Test func mergingRefusesOtherFilesAndOverlaps() {
        let first = Self.summary(SeedSelection(from: 1, to: 2))
        let other = Self.summary(SeedSelection(from: 3, to: 4), digest: "e")
        let overlapping = Self.summary(SeedSelection(from: 2, to: 3))
        #expect(throws: ExploreSummary.MergeError.self) { try ExploreSummary.merge([first, other]) }
        #expect(throws: ExploreSummary.MergeError.self) {
            try ExploreSummary.merge([first, overlapping])
        }
        #expect(throws: ExploreSummary.MergeError.self) { try ExploreSummary.merge([]) }
    }

    @Test func countsAddUp() {
        let summary = Self.summary(SeedSelection(from: 1, to: 4))
        #expect(summary.runs == 4)
        #expect(summary.clean + summary.explained + summary.newFindings + summary.budgetFailures
            == 4)
        #expect(summary.hasFindings == (summary.newFindings + summary.budgetFailures > 0))
    }
}
