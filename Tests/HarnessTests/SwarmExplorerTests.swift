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
