@testable import Harness
import Engines
import Foundation
import SyncContract
import TestSupport
import Testing

/// `explore --swarm --guided`: mutations redraw only the streams they do not keep, the guide
/// keeps the pilot seeds that reached something first, and the sweep is the same in any
/// `--jobs`, across shards, and when one seed is rerun from its line.
@Suite(.serialized) struct GuidedExplorerTests {
    @Test func aMutationPrintsAsItIsRead() throws {
        let mutation = SwarmMutation(parent: 17, kept: [.faults, .world, .times], boostedFault: 2)
        #expect(mutation.description == "parent=17,keep=world+times+faults,boost=2")
        #expect(try SwarmMutation.parse(mutation.description).get() == mutation)
        let none = SwarmMutation(parent: 3, kept: [])
        #expect(none.description == "parent=3,keep=none")
        #expect(try SwarmMutation.parse(none.description).get() == none)
        for (text, message) in [
            ("keep=world", "it needs 'parent=SEED'"),
            ("parent=x", "parent takes a seed, not 'x'"),
            ("parent=1,keep=clock", "no stream 'clock' (streams: world, times, ops, values, faults)"),
            ("parent=1,speed=2", "unknown key 'speed' (parent, keep, boost)"),
        ] {
            #expect(throws: SwarmMutation.ParseProblem.self) {
                try SwarmMutation.parse(text).get()
            }
            if case .failure(let problem) = SwarmMutation.parse(text) {
                #expect(problem.message == message)
            }
        }
    }

    /// Keeping every stream of the parent, with nothing boosted, is the parent's run.
    @Test(arguments: ["naive", "outbox"])
    func keepingEveryStreamRerunsTheParent(engine: String) throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: engine))
        let parent = try #require(swarm.run(seed: 3))
        let all = SwarmMutation(parent: 3, kept: SwarmMutation.Stream.allCases)
        var child = try #require(swarm.run(seed: 40, mutation: all))
        #expect(child.mutation == all)
        child.seed = 3
        child.mutation = nil
        #expect(child == parent)
        // Redrawing the fault phase's streams gives another run of the same world.
        let redrawn = try #require(
            swarm.run(seed: 40, mutation: SwarmMutation(parent: 3, kept: [.world])))
        #expect(redrawn.events != parent.events)
    }

    @Test func aBoostMultipliesOneFaultRateByFourUpToHalf() {
        var lines = ["chaos fault kill 1.5%", "x", "chaos fault offline 20.0%"]
        SwarmExplorer.boost(fault: 0, in: &lines)
        #expect(lines[0] == "chaos fault kill 6.0%")
        SwarmExplorer.boost(fault: 3, in: &lines)  // 3 % 2 = 1: the second fault line
        #expect(lines[2] == "chaos fault offline 50.0%")
    }

    @Test func theCorpusKeepsSeedsThatReachedSomethingFirst() {
        func coverage(_ features: [String]) -> RunCoverage { RunCoverage(features: features) }
        let guide = CoverageGuide(pilot: [
            (1, coverage(["rule:A", "rule:B"])),
            (2, coverage(["rule:A"])),
            (3, coverage(["rule:A", "rule:C"])),
        ])
        #expect(guide.corpus.map(\.seed) == [1, 3])
        #expect(guide.corpus.map(\.newFeatures) == [["rule:A", "rule:B"], ["rule:C"]])
        // Rare features weigh most: A was reached by all three runs, B and C by one each.
        #expect(guide.corpus.map(\.weight) == [1 + 3, 1 + 3])
        #expect(guide.reached.map(\.feature) == ["rule:A", "rule:B", "rule:C"])
        let mutations = (UInt64(4)...400).map(guide.mutation(for:))
        #expect(mutations == (UInt64(4)...400).map(guide.mutation(for:)))
        let fresh = mutations.filter { $0 == nil }.count
        #expect((50...150).contains(fresh), "about a quarter of 397 seeds draw afresh: \(fresh)")
        #expect(Set(mutations.compactMap { $0?.parent }) == [1, 3])
        #expect(CoverageGuide(pilot: []).mutation(for: 9) == nil)
    }

    @Test func aRunsCoverageNamesRulesRefusalsStepsAndChecks() throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: "naive"))
        let run = try #require(swarm.covered(seed: 2))
        let features = run.coverage.features
        #expect(features == features.sorted())
        for weakness in run.result.firedWeaknesses {
            #expect(features.contains("rule:" + weakness))
        }
        #expect(features.contains("step:insert"))
        for violation in run.result.violations {
            #expect(features.contains("check:\(violation.check.rawValue):"
                + (violation.isExplained ? "explained" : "new")))
        }
    }

    /// Reading a run's coverage (its probe pairs, the state checks when the heal begins)
    /// leaves the run as it was: the result is the plain run's, on every bundled engine.
    @Test(arguments: EngineRegistry.bundled.names)
    func readingCoverageDoesNotChangeTheRun(engine: String) throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: engine))
        var pairs = 0
        var close = 0
        for seed in UInt64(1)...4 {
            guard let covered = swarm.covered(seed: seed) else { continue }
            #expect(covered.result == swarm.run(seed: seed), "seed \(seed)")
            let features = covered.coverage.features
            pairs += features.filter { $0.hasPrefix("probes:") }.count
            close += features.filter { $0.hasPrefix("close:") }.count
        }
        #expect(pairs > 0, "no probe pairs on \(engine)")
        #expect(close > 0, "no check came close on \(engine) in four seeds")
    }

    /// `close:liveness`: the heal's syncs and settle took more than half of the heal bound.
    /// A slow network over a short bound comes close; the same run over a long one does not.
    @Test func aHealThatTakesMostOfItsBoundComesCloseToLiveness() {
        func features(heal: String) -> [String] {
            let source = """
                scenario "slow heal"
                entity Note {
                  title: String = ""
                }
                account alice
                device phone on alice
                device laptop on alice
                cloud latency 400ms..500ms
                chaos workload 6 operations on Note by phone, laptop every 1s
                chaos heal within \(heal)
                """
            let covered = ExplorerFixtures.explorer(source).covered(seed: 1)
            #expect(covered.result.outcome == .clean, "heal within \(heal)")
            return covered.coverage.features
        }
        #expect(features(heal: "4s").contains("close:liveness"))
        #expect(!features(heal: "1h").contains("close:liveness"))
    }

    @Test func aProbePairIsTwoProbePointsOneDevicePassedInARow() {
        var tally = ProbePairTally(devices: 2)
        tally.note("sync.start", device: 0)
        tally.note("upload.start", device: 1)
        tally.note("upload.start", device: 0)
        tally.note("sync.start", device: 0)
        tally.note("upload.start", device: 0)
        #expect(tally.sorted == ["sync.start>upload.start", "upload.start>sync.start"])
        #expect(["1", "2", "3-4", "3-4", "5-8", "9+"]
            == [1, 2, 3, 4, 8, 9].map(ChaosRun.bucket))
    }

    /// The same output in any `--jobs`; shards merge into the whole; a guided seed's rerun
    /// line gives that seed's result again.
    @Test func aGuidedSweepIsTheSameInAnyJobsAndAcrossShards() throws {
        let folder = try TestSupport.temporaryFolder("guided")
        let arguments = ["explore", "--swarm", "--engine", "naive", "--seeds", "16", "--guided",
            "--pilot", "6", "--shrink-limit", "0"]
        let whole = folder.appendingPathComponent("whole.json").path
        let one = try TestSupport.runSynclab(arguments + ["--jobs", "1", "--json", whole])
        let two = try TestSupport.runSynclab(arguments + ["--jobs", "2"])
        #expect(one.standardOutput.replacingOccurrences(of: "1 job", with: "2 jobs")
            == two.standardOutput)
        #expect(one.standardOutput.contains("guided: pilot seeds 1...6, "))
        var shards: [String] = []
        for index in 1...2 {
            let path = folder.appendingPathComponent("shard\(index).json").path
            _ = try TestSupport.runSynclab(arguments + ["--shard", "\(index)/2", "--json", path])
            shards.append(path)
        }
        let merged = folder.appendingPathComponent("merged.json").path
        let merge = try TestSupport.runSynclab(["explore", "merge"] + shards + ["--json", merged])
        #expect(merge.status != 2, "\(merge.standardError)")
        let wholeSummary = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: whole))) as? [String: Any]
        let mergedSummary = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: merged))) as? [String: Any]
        func canonical(_ value: Any?) throws -> Data {
            try JSONSerialization.data(withJSONObject: [value ?? "-"], options: [.sortedKeys])
        }
        for key in ["runs", "clean", "explained", "newFindings", "explainedBy", "observed"] {
            #expect(try canonical(wholeSummary?[key]) == canonical(mergedSummary?[key]), "\(key)")
        }
        // A guided seed, from the sweep's results, rerun alone from its mutation.
        let out = folder.appendingPathComponent("out")
        _ = try TestSupport.runSynclab(arguments + ["--out", out.path])
        let results = try JSONDecoder().decode(
            GuidedResults.self,
            from: Data(contentsOf: out.appendingPathComponent("results.json")))
        let guided = try #require(results.seeds.first { $0.mutation != nil })
        let mutation = try #require(guided.mutation)
        let alone = folder.appendingPathComponent("alone")
        _ = try TestSupport.runSynclab(["explore", "--swarm", "--engine", "naive", "--seed",
            "\(guided.seed)", "--mutation", mutation.description, "--shrink-limit", "0",
            "--out", alone.path])
        let again = try JSONDecoder().decode(
            GuidedResults.self,
            from: Data(contentsOf: alone.appendingPathComponent("results.json")))
        #expect(again.seeds == [guided])
    }

    /// The part of `results.json` these tests read.
    private struct GuidedResults: Decodable {
        var seeds: [SeedResult]
    }

    @Test func guidanceOptionsThatDoNotGoTogetherAreUsageErrors() throws {
        for (arguments, message) in [
            (["explore", "Scenarios/explore/swarm.chaos", "--guided"], "'--guided' needs '--swarm'"),
            (["explore", "--swarm", "--engine", "naive", "--pilot", "5"],
             "'--pilot' needs '--guided'"),
            (["explore", "--swarm", "--engine", "naive", "--seeds", "3", "--mutation", "parent=1"],
             "'--mutation' reruns one seed: give '--seed S'"),
            (["explore", "--swarm", "--engine", "naive", "--seed", "3", "--mutation", "boost=1"],
             "'--mutation boost=1': it needs 'parent=SEED'"),
        ] {
            let run = try TestSupport.runSynclab(arguments)
            #expect(run.status == 2)
            #expect(run.standardError.contains(message), "\(run.standardError)")
        }
    }
}
