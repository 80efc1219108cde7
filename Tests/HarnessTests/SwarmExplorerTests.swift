@testable import Harness
import Engines
import Scenario
import SyncContract
import Testing

/// `explore --swarm`: each seed's world is a function of the seed, runs on every registered
/// engine within what it accepts, and gives the same result every time.
@Suite struct SwarmExplorerTests {
    @Test func aSeedAlwaysDrawsTheSameWorldAndSeedsDiffer() {
        #expect(SwarmWorld(seed: 7) == SwarmWorld(seed: 7))
        let sources = Set((1...20).map { SwarmWorld(seed: $0).source })
        #expect(sources.count == 20)
        let features = Set((1...50).flatMap { SwarmWorld(seed: $0).features })
        for feature in ["relationship", "identity", "asset", "large-values", "sharable", "cascade",
                        "user-delete-zone"] {
            #expect(features.contains(feature), "50 seeds never drew \(feature)")
        }
    }

    @Test(arguments: EngineRegistry.bundled.names)
    func everyEngineRunsItsDrawnWorldsTheSameWayTwice(engine: String) throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: engine))
        for seed in UInt64(1)...4 {
            let drawn = try #require(swarm.world(seed: seed), "seed \(seed) on \(engine)")
            let checked = ScenarioChecker.check(
                source: drawn.world.source, file: "swarm",
                options: swarm.options.validationOptions)
            #expect(!checked.diagnostics.containsErrors)
            let first = try #require(swarm.run(seed: seed))
            let second = try #require(swarm.run(seed: seed))
            #expect(first == second)
        }
    }

    /// An older app's device leaves the required attribute out of its records; an engine
    /// whose store would not load with it (mirror) runs the world without it.
    @Test(arguments: EngineRegistry.bundled.names)
    func anOlderAppsWorldRunsOnEveryEngine(engine: String) throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: engine))
        let seeds = (UInt64(1)...60).filter { SwarmWorld(seed: $0).features.contains("older-app") }
        #expect(seeds.count >= 5)
        for seed in seeds.prefix(5) {
            let drawn = try #require(swarm.world(seed: seed), "seed \(seed) on \(engine)")
            let source = drawn.world.source
            #expect(source.contains("by phone, laptop"))
            let required = source.contains(SwarmWorld.requiredLine + "\n")
            #expect(required == (engine != "mirror"), "seed \(seed) on \(engine)")
            #expect(source.contains("device old-phone on alice syncs Note(") == required)
            #expect(source.contains("device old-phone on alice\n") == !required)
            #expect(drawn.world.features.contains("older-app") == required)
        }
    }

    /// The explorer's convergence check asks the older app's device only what it
    /// synchronizes, and no device to hold a record that lacks a required value (history
    /// skips it by design, HIS-21).
    @Test func anOlderAppsRecordsAreNotCountedAsDivergence() {
        let source = """
            scenario "An older app's notes"
            entity Note {
              title: String = ""
              summary: String
            }
            account alice
            device phone on alice
            device old-phone on alice syncs Note(title)
            chaos workload 6 operations by old-phone every 1s
            chaos mix insert 100%
            """
        let options = ExploreOptions(engines: .bundled, engine: "history")
        let result = ExplorerFixtures.explorer(source, options: options).run(seed: 1)
        #expect(result.violations.filter { $0.check == .convergence } == [])
    }

    /// The lost-change check asks the older app's device neither for a key its version does
    /// not synchronize nor for a record its store declines, and its own saves of such a key
    /// are not expected in iCloud; the rest of a page that held a declined record is stored
    /// (naive skips the record, NAIVE-8).
    @Test(arguments: ["naive", "history"])
    func anOlderAppsKeysAreNotCountedAsLostChanges(engine: String) {
        let source = """
            scenario "An older app's notes beside tags"
            entity Note {
              title: String = ""
              summary: String
            }
            entity Tag {
              label: String = ""
            }
            account alice
            device phone on alice
            device old-phone on alice syncs Note(title) Tag
            chaos workload 12 operations by phone, old-phone every 1s
            chaos mix insert 100%
            """
        let options = ExploreOptions(engines: .bundled, engine: engine)
        for seed in UInt64(1)...3 {
            let result = ExplorerFixtures.explorer(source, options: options).run(seed: seed)
            #expect(result.violations.filter { $0.check == .lostChange } == [],
                "\(engine) seed \(seed)")
        }
    }

    @Test func whatTheEngineRefusesIsLeftOutAndNotClaimedAsDrawn() throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: "naive"))
        for seed in UInt64(1)...30 {
            let drawn = try #require(swarm.world(seed: seed))
            for feature in drawn.world.features {
                guard let marker = SwarmWorld.marker(of: feature) else { continue }
                #expect(drawn.world.source.contains(marker), "seed \(seed) claims \(feature)")
            }
        }
    }
}
