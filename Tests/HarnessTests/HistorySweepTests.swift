import Engines
import Harness
import Scenario
import SyncContract
import Testing

/// The `history` sweep of `Scenarios/explore/` finds HISW-1 by chance: a push that failed
/// offline leaves its staged token behind, and the lost change it causes is explained by
/// the weakness (the profile lists HISW-* as known explanations, like sds's LIM-*).
@Suite struct HistorySweepTests {
    @Test func hisw1IsFoundAndExplainsAViolationWithinFiveSeeds() throws {
        let explorer = try ExplorerFixtures.bundled("history-1-offline-push.chaos")
        let seed = (UInt64(1)...5).first { seed in
            let result = explorer.run(seed: seed)
            return result.firedWeaknesses.contains("HISW-1") && result.explainedBy.contains("HISW-1")
        }
        #expect(seed != nil)
    }

    @Test func theSweepFindsNothingTheCatalogueDoesNotExplain() throws {
        let explorer = try ExplorerFixtures.bundled("history-1-offline-push.chaos")
        let profile = EngineRegistry.bundled.profile(named: "history")
        let weaknesses = Set(profile?.catalogue.weaknesses.map(\.id) ?? [])
        for seed in UInt64(1)...5 {
            let result = explorer.run(seed: seed)
            #expect(result.outcome != .budgetFailure)
            let unexplained = result.violations.filter { !$0.isExplained }
            #expect(unexplained.isEmpty, "seed \(seed): \(unexplained)")
            #expect(result.explainedBy.allSatisfy(weaknesses.contains))
        }
    }
}
