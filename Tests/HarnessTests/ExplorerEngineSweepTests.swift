import Engines
import Foundation
@testable import Harness
import SyncContract
import TestSupport
import Testing

/// The explorer finds a weakness of the engines built on CKSyncEngine and on Core Data's
/// mirroring by chance, as it does for naive (ExplorerNaiveSweepTests) and history
/// (HistorySweepTests): each sweep of `Scenarios/explore/` named `ENGINE-*.chaos` runs on its
/// engine, and within a few seeds a violation is explained by the named weakness, with every
/// explanation one of that engine's own weaknesses.
@Suite(.serialized) struct ExplorerEngineSweepTests {
    struct Sweep: CustomStringConvertible, Sendable {
        let file: String
        let engine: String
        let weakness: String
        var description: String { "\(file) → \(weakness)" }
    }

    static let sweeps = [
        Sweep(file: "outbox-1-lost-update.chaos", engine: "outbox", weakness: "OBXW-1"),
        Sweep(file: "mirror-1-lost-update.chaos", engine: "mirror", weakness: "MIRW-1"),
    ]

    @Test(arguments: sweeps) func theWeaknessIsFoundWithinTenSeeds(_ sweep: Sweep) throws {
        let profile = try #require(EngineRegistry.bundled.profile(named: sweep.engine))
        let own = Set(profile.catalogue.weaknesses.map(\.id))
        let explorer = try ExplorerFixtures.bundled(sweep.file)
        #expect(explorer.drawnRun(seed: 1, options: explorer.options).world.profile.name == sweep.engine)
        var found: UInt64?
        for seed in UInt64(1)...10 {
            let result = explorer.run(seed: seed)
            #expect(result.violations.allSatisfy { $0.explainedBy.allSatisfy(own.contains) },
                    "seed \(seed): explained by another engine's rules")
            #expect(result.outcome != .newFinding, "seed \(seed): a finding no weakness explains")
            if result.explainedBy.contains(sweep.weakness) { found = seed; break }
        }
        #expect(found != nil, "\(sweep.weakness) explained nothing in seeds 1…10")
    }
}
