import Scenario

/// `synclab explore --swarm`: each seed runs its own drawn world (`SwarmWorld`) on one
/// engine. The drawn file is checked against the engine first; a line the engine or the
/// format refuses is left out and the file checked again, so the sweep runs on any
/// registered engine, a user's own included, within what it supports. With a base file, the
/// worlds keep its schema, accounts and devices (an app's own model) and draw the rest.
public struct SwarmExplorer: Sendable {
    public let options: ExploreOptions
    /// A file whose schema, accounts and devices every world keeps (only its chaos is drawn).
    public let base: String?

    /// Checks of one drawn file before it is given up on.
    static let attempts = 16

    public init(options: ExploreOptions, base: String? = nil) {
        self.options = options
        self.base = base
    }

    /// The seed's world as the engine accepts it, with the features it kept; nil when no
    /// runnable file was left.
    public func world(seed: UInt64) -> (world: SwarmWorld, explorer: Explorer)? {
        var world = SwarmWorld(seed: seed, base: base)
        var lines = world.source.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        for _ in 0..<Self.attempts {
            let source = lines.joined(separator: "\n")
            let checked = ScenarioChecker.check(
                source: source, file: Self.file(seed), options: options.validationOptions)
            let errors = checked.diagnostics.filter { $0.severity == .error }
            guard let first = errors.first else {
                guard checked.scenario.chaos.workload != nil else { return nil }
                if dropOlderApp(checked.scenario, lines: &lines) { continue }
                world.source = source
                world.features = world.features.filter { feature in
                    SwarmWorld.marker(of: feature).map { source.contains($0) } ?? true
                }
                return (world, Explorer(
                    scenario: checked.scenario, source: source, options: options))
            }
            let index = first.location.line - 1
            guard lines.indices.contains(index) else { return nil }
            lines.remove(at: index)
        }
        return nil
    }

    /// Leaves out the `older-app` feature when the engine's store would not load with its
    /// required attribute (mirror: MIR-1): its device stays, as an ordinary one.
    private func dropOlderApp(_ scenario: ScenarioFile, lines: inout [String]) -> Bool {
        guard let index = lines.firstIndex(of: SwarmWorld.requiredLine),
            let engine = options.engine, let profile = options.engines.profile(named: engine),
            let failure = profile.validateSchema?(SchemaLowering.schema(of: scenario)),
            failure.findings.contains(where: { $0.entity == "Note" && $0.property == "summary" })
        else { return false }
        lines.remove(at: index)
        if let device = lines.firstIndex(where: { $0.hasPrefix(SwarmWorld.olderDevice + " ") }) {
            lines[device] = SwarmWorld.olderDevice
        }
        return true
    }

    /// Runs one seed's world; nil when the engine accepts nothing of it.
    public func run(seed: UInt64) -> SeedResult? {
        world(seed: seed)?.explorer.run(seed: seed)
    }

    /// Shrinks a seed's finding, the scenario saying which features the seed drew.
    public func shrink(_ result: SeedResult) -> ShrunkScenario? {
        guard let (world, explorer) = world(seed: result.seed),
            var shrunk = explorer.shrink(result)
        else { return nil }
        shrunk.text = "# swarm seed \(world.seed): \(world.features.joined(separator: ", "))\n"
            + shrunk.text
        return shrunk
    }

    /// The name a seed's drawn file goes by in diagnostics and reports.
    public static func file(_ seed: UInt64) -> String { "swarm-\(seed).chaos" }
}
