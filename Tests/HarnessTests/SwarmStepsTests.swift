@testable import Harness
import Engines
import Scenario
import SyncContract
import Testing

/// The mix's sharing steps and batch deletes: how `chaos mix` reads them, how a swarm world
/// draws them, and what a modest sweep reaches with them.
@Suite struct SwarmStepsTests {
    static let setup = """
        scenario "chaos"
        entity Folder {
          name: String = ""
          notes: [Note] inverse(folder)
          sharable
        }
        entity Note {
          title: String = ""
          folder: Folder? parent
        }
        account alice
        account bob
        device phone on alice
        device tablet on bob
        chaos workload 20 operations

        """

    @Test func theNewKindsLandInTheTreeWithTheirPlaces() throws {
        let source = Self.setup + "chaos mix insert 80% batch-delete 5% share 10% unshare 5%\n"
        let checked = ScenarioChecker.check(source: source, file: "x")
        #expect(checked.diagnostics.isEmpty)
        let shares = try #require(checked.scenario.chaos.mix).shares
        #expect(shares.map(\.kind) == [.insert, .batchDelete, .share, .unshare])
        #expect(shares.map(\.share.description) == ["80%", "5%", "10%", "5%"])
        #expect(shares[2].location?.line == 16)
        #expect(shares[2].location?.column == 38)
    }

    /// A mix line, the diagnostic it must produce, and where.
    struct Case: Sendable, CustomTestStringConvertible {
        let mix: String
        let id: String
        let at: String
        var suggestion: String?
        var engine: String?

        var testDescription: String { "\(id): \(mix)" }
    }

    static let errors: [Case] = [
        Case(mix: "insert 90% batch-delet 10%", id: "unknown-operation", at: "x:16:22",
            suggestion: "batch-delete"),
        Case(mix: "insert 90% unshar 10%", id: "unknown-operation", at: "x:16:22",
            suggestion: "unshare"),
        Case(mix: "insert 90% share 10", id: "expected", at: "x:16:28"),
        Case(mix: "insert 80% share 10% share 10%", id: "duplicate-chaos-entry",
            at: "x:16:32"),
        Case(mix: "insert 80% batch-delete 25%", id: "invalid-chaos-mix", at: "x:16:1"),
        Case(mix: "insert 80% unshare 10% share 10%", id: "unsupported-statement",
            at: "x:16:22", engine: "naive"),
        Case(mix: "insert 90% share 10%", id: "unsupported-statement", at: "x:16:22",
            engine: "mirror"),
    ]

    @Test(arguments: errors)
    func refusesWhatItCannotRun(_ example: Case) {
        var options = ValidationOptions()
        if let engine = example.engine {
            options = ExploreOptions(engines: .bundled, engine: engine).validationOptions
        }
        let source = Self.setup + "chaos mix \(example.mix)\n"
        let checked = ScenarioChecker.check(source: source, file: "x", options: options)
        let diagnostic = checked.diagnostics.first { $0.id.rawValue == example.id }
        #expect(diagnostic?.rendered.contains(example.at) == true,
            "\(checked.diagnostics.map(\.rendered))")
        if let suggestion = example.suggestion {
            #expect(diagnostic?.suggestions.contains(suggestion) == true)
        }
    }

    @Test(arguments: ["outbox", "history", "sds"])
    func anEngineThatSharesTakesTheSharingKinds(engine: String) {
        let options = ExploreOptions(engines: .bundled, engine: engine).validationOptions
        let source = Self.setup + "chaos mix insert 80% share 10% unshare 10%\n"
        let checked = ScenarioChecker.check(source: source, file: "x", options: options)
        #expect(!checked.diagnostics.containsErrors, "\(checked.diagnostics.map(\.rendered))")
    }

    /// Drawn from a stream of their own: a world without them is the same whatever the
    /// engine can do, and one with sharing has its folder, second account and device.
    @Test func theWorldsDrawThemOnTheirOwn() {
        var sharing = 0
        var batchDeletes = 0
        for seed in UInt64(1)...60 {
            let world = SwarmWorld(seed: seed)
            let without = SwarmWorld(seed: seed, sharing: false)
            #expect(!without.features.contains("sharing"))
            if world.features.contains("sharing") {
                sharing += 1
                #expect(world.source.contains("  sharable\n"))
                #expect(world.source.contains("account bob\n"))
                #expect(world.source.contains(SwarmWorld.sharingDevice + "\n"))
                #expect(world.source.contains(", bob-phone every"))
                #expect(world.source.contains(" share "))
                #expect(world.source.contains(" unshare "))
            } else {
                #expect(world == without, "seed \(seed)")
            }
            if world.features.contains("batch-delete") {
                batchDeletes += 1
                #expect(world.source.contains(" batch-delete "))
            }
        }
        #expect(sharing >= 5)
        #expect(batchDeletes >= 5)
    }

    /// A base file (an app's own schema and devices) draws them too: batch deletes always,
    /// the sharing steps only when it has a `sharable` entity and a second account.
    @Test func aBaseFileDrawsThemWithinWhatItDeclares() throws {
        let base = Self.setup.replacingOccurrences(of: "chaos workload 20 operations\n", with: "")
        let unsharable = base.replacingOccurrences(of: "  sharable\n", with: "")
            .replacingOccurrences(of: "folder: Folder? parent", with: "folder: Folder?")
        let sharing = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: "sds"),
                                    base: base)
        let plain = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: "sds"),
                                  base: unsharable)
        var shared = 0
        var batchDeletes = 0
        for seed in UInt64(1)...40 {
            let world = try #require(sharing.world(seed: seed)?.world, "seed \(seed)")
            let other = try #require(plain.world(seed: seed)?.world, "seed \(seed)")
            #expect(!other.source.contains(" share ") && !other.features.contains("sharing"))
            #expect(world.source.contains(" share ") == world.features.contains("sharing"))
            #expect(world.source.contains(" batch-delete ")
                == world.features.contains("batch-delete"))
            #expect(other.features.contains("batch-delete")
                == world.features.contains("batch-delete"))
            if world.features.contains("sharing") { shared += 1 }
            if world.features.contains("batch-delete") { batchDeletes += 1 }
        }
        #expect(shared >= 5)
        #expect(batchDeletes >= 5)
        let seed = try #require((UInt64(1)...40).first {
            sharing.world(seed: $0)?.world.features.contains("sharing") == true
        })
        #expect(try #require(sharing.run(seed: seed)).steps > 0)
    }

    /// The worlds that draw the new kinds parse and run on every engine, sharing only where
    /// the engine carries it out.
    @Test(arguments: EngineRegistry.bundled.names)
    func theirWorldsRunOnEveryEngine(engine: String) throws {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: engine))
        let statements = try #require(swarm.options.engines.profile(named: engine)).statements
        let shares = statements.contains("share")
        let seeds = (UInt64(1)...40).filter { seed in
            let features = SwarmWorld(seed: seed).features
            return features.contains("sharing") || features.contains("batch-delete")
        }
        for seed in seeds.prefix(3) {
            let drawn = try #require(swarm.world(seed: seed), "seed \(seed) on \(engine)")
            let checked = ScenarioChecker.check(
                source: drawn.world.source, file: "swarm",
                options: swarm.options.validationOptions)
            #expect(!checked.diagnostics.containsErrors, "seed \(seed) on \(engine)")
            #expect(drawn.world.source.contains(" share ") == (shares
                && SwarmWorld(seed: seed).features.contains("sharing")))
            let result = try #require(swarm.run(seed: seed))
            #expect(result.steps > 0)
        }
    }

    /// A modest sweep reaches what the workload could not before: a revoked share's copies
    /// on outbox (OBXW-8) and a batch delete brought back on naive (NAIVEW-10). Only the
    /// seeds that draw the kind can reach it, so only those run. `first` is the first seed
    /// that did when this was written; the sweep allows the engines some change.
    @Test(arguments: [
        ("outbox", "sharing", "OBXW-8", UInt64(28)), ("naive", "batch-delete", "NAIVEW-10", 21),
    ])
    func aModestSweepReaches(engine: String, feature: String, weakness: String, first: UInt64)
        throws
    {
        let swarm = SwarmExplorer(options: ExploreOptions(engines: .bundled, engine: engine))
        var found: UInt64?
        let seeds = (UInt64(1)...(2 * first)).filter {
            SwarmWorld(seed: $0).features.contains(feature)
        }
        for seed in seeds {
            let result = try #require(swarm.run(seed: seed))
            if result.firedWeaknesses.contains(weakness) {
                found = seed
                break
            }
        }
        #expect(found != nil, "\(weakness) on \(engine) in seeds 1...\(2 * first)")
    }
}
