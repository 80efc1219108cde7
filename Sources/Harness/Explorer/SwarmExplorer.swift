import Scenario
import SyncContract

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

    /// Whether a world may draw the sharing steps: the engine carries them out, and a base
    /// (when there is one) declares a `sharable` entity and a second account to share with.
    private let drawsSharing: Bool

    public init(options: ExploreOptions, base: String? = nil) {
        self.options = options
        self.base = base
        drawsSharing = Self.canShare(options) && base.map(Self.baseCanShare) ?? true
    }

    private static func baseCanShare(_ base: String) -> Bool {
        let scenario = ScenarioParser.parse(source: base, file: "base").scenario
        return scenario.entities.contains(where: \.isSharable) && scenario.accounts.count > 1
    }

    /// The seed's world as the engine accepts it, with the features it kept; nil when no
    /// runnable file was left.
    public func world(seed: UInt64) -> (world: SwarmWorld, explorer: Explorer)? {
        world(seed: seed, mutation: nil)
    }

    /// The world a seed runs: its own, or for a mutation its parent's (one fault boosted),
    /// its explorer drawing the streams the mutation keeps from the parent's seed.
    public func world(seed: UInt64, mutation: SwarmMutation?)
        -> (world: SwarmWorld, explorer: Explorer)?
    {
        var world = SwarmWorld(seed: mutation?.parent ?? seed, base: base, sharing: drawsSharing)
        var lines = world.source.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if let boosted = mutation?.boostedFault { Self.boost(fault: boosted, in: &lines) }
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
                var explorer = Explorer(
                    scenario: checked.scenario, source: source, options: options)
                explorer.mutation = mutation
                return (world, explorer)
            }
            let index = first.location.line - 1
            guard lines.indices.contains(index) else { return nil }
            lines.remove(at: index)
        }
        return nil
    }

    /// Whether the engine carries out every sharing step a world may draw (the default
    /// engine, without `--engine`, does).
    private static func canShare(_ options: ExploreOptions) -> Bool {
        let statements = options.engine.flatMap { options.engines.profile(named: $0) }?.statements
            ?? EngineProfile.engineStatements
        return ["share", "accept", "unshare", "remove", "leave"].allSatisfy(statements.contains)
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
    public func run(seed: UInt64, mutation: SwarmMutation? = nil) -> SeedResult? {
        world(seed: seed, mutation: mutation)?.explorer.run(seed: seed)
    }

    /// Runs one seed's world with what the run reached; nil as for `run`.
    public func covered(seed: UInt64, mutation: SwarmMutation? = nil)
        -> (result: SeedResult, coverage: RunCoverage)?
    {
        world(seed: seed, mutation: mutation)?.explorer.covered(seed: seed)
    }

    /// Shrinks a seed's finding, the scenario saying which features the seed drew.
    public func shrink(_ result: SeedResult) -> ShrunkScenario? {
        guard let (world, explorer) = world(seed: result.seed, mutation: result.mutation),
            var shrunk = explorer.shrink(result)
        else { return nil }
        let drawn = result.mutation.map { " (guided: \($0))" } ?? ""
        shrunk.text = "# swarm seed \(result.seed)\(drawn): "
            + "\(world.features.joined(separator: ", "))\n" + shrunk.text
        return shrunk
    }

    /// Multiplies the rate of the `index`-th `chaos fault` line (modulo their number) by
    /// four, at most 50%.
    static func boost(fault index: Int, in lines: inout [String]) {
        let faults = lines.indices.filter { lines[$0].hasPrefix("chaos fault ") }
        guard !faults.isEmpty else { return }
        let position = faults[index % faults.count]
        var words = lines[position].split(separator: " ").map(String.init)
        guard words.count >= 4, words[3].hasSuffix("%"),
            let percent = Double(words[3].dropLast())
        else { return }
        let tenths = min(Int((percent * 10).rounded()) * 4, 500)
        words[3] = "\(tenths / 10).\(tenths % 10)%"
        lines[position] = words.joined(separator: " ")
    }

    /// The name a seed's drawn file goes by in diagnostics and reports.
    public static func file(_ seed: UInt64) -> String { "swarm-\(seed).chaos" }
}
