import Engines
import Foundation
@testable import Harness
import SyncContract
import TestSupport
import Testing

/// The explorer on another engine than sds: the naive sweeps of `Scenarios/explore/`
/// (`engine naive`) find naive's weaknesses by chance, and every violation is explained by
/// naive's own catalogue (NAIVEW-*), never by sds's LIM-*; the command's output and the
/// shrunk files name the engine they ran on.
@Suite(.serialized) struct ExplorerNaiveSweepTests {
    @Test func thereIsANaiveSweep() {
        #expect(ExplorerFixtures.bundledFiles.contains { $0.hasPrefix("naive-") })
    }

    /// The first seed of a range that observed `rule` and had a violation it explained, and
    /// every explanation of every seed up to it is a weakness of naive.
    static func firstSeed(explaining rule: String, in name: String, seeds: ClosedRange<UInt64>)
        throws -> UInt64?
    {
        let explorer = try ExplorerFixtures.bundled(name)
        let naive = Set(NaiveCatalogueIDs.weaknesses)
        for seed in seeds {
            let result = explorer.run(seed: seed)
            for violation in result.violations {
                #expect(violation.explainedBy.allSatisfy(naive.contains),
                    "seed \(seed): \(violation.explainedBy) are not naive's weaknesses")
            }
            #expect(result.firedWeaknesses.allSatisfy(naive.contains), "seed \(seed): \(result.firedWeaknesses)")
            if result.firedWeaknesses.contains(rule) && result.explainedBy.contains(rule) { return seed }
        }
        return nil
    }

    @Test func naivew1IsFoundWithinTenSeeds() throws {
        let seed = try Self.firstSeed(explaining: "NAIVEW-1", in: "naive-1-lost-update.chaos", seeds: 1...10)
        #expect(seed != nil)
    }

    @Test func naivew3IsFoundWithinTenSeeds() throws {
        let seed = try Self.firstSeed(explaining: "NAIVEW-3", in: "naive-3-offline-edit.chaos", seeds: 1...10)
        #expect(seed != nil)
    }

    @Test func theSweepsRunOnNaive() throws {
        for name in ExplorerFixtures.bundledFiles where name.hasPrefix("naive-") {
            let explorer = try ExplorerFixtures.bundled(name)
            let run = explorer.drawnRun(seed: 1, options: explorer.options)
            #expect(run.world.profile.name == "naive", "\(name)")
        }
    }

    /// The command's table names the engine's weaknesses as such, with no sds wording.
    @Test func theOutputSpeaksOfTheEnginesWeaknesses() throws {
        let output = try TestSupport.runSynclab(
            ["explore", "Scenarios/explore/naive-1-lost-update.chaos", "--seeds", "10"])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("    by NAIVEW-1"))
        let observed = output.standardOutput.split(separator: "\n")
            .first { $0.hasPrefix("  weaknesses observed: ") }
        #expect(observed?.contains("NAIVEW-1 in ") == true, "\(output.standardOutput)")
        #expect(!output.standardOutput.contains("LIM"), "\(output.standardOutput)")
    }

    /// A finding made with `--engine naive` on a file written for sds is shrunk to a file
    /// that says `engine naive`, so `synclab run` replays it on naive (and fails there).
    @Test func aShrunkFindingNamesTheEngineItWasFoundOn() throws {
        let folder = try TestSupport.temporaryFolder("explore-naive-shrunk")
        let output = try TestSupport.runSynclab([
            "explore", "Scenarios/explore/lim-1-edit-meets-deletion.chaos", "--engine", "naive",
            "--seeds", "1", "--shrink-explained", "--shrink-limit", "1", "--shrink-runs", "40",
            "--out", folder.path,
        ])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(!output.standardOutput.contains("does not reproduce"), "\(output.standardOutput)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let shrunk = try #require(names.first { $0.hasSuffix(".scenario") }, "\(names)")
        let file = folder.appendingPathComponent(shrunk)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.split(separator: "\n").contains("engine naive"), "\(text)")
        let replay = try TestSupport.runSynclab(["run", file.path])
        #expect(replay.status == 1, "\(replay.standardOutput)\(replay.standardError)")
    }
}

/// naive's weaknesses, from its catalogue.
enum NaiveCatalogueIDs {
    static var weaknesses: [String] {
        EngineRegistry.bundled.profile(named: "naive")?.catalogue.weaknesses.map(\.id) ?? []
    }
}
