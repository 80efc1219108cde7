/// What validation accepts beyond the contract: engines may add probe points and rules.
public struct ValidationOptions: Hashable, Sendable {
    /// The contract's probe points, in the order one synchronization passes them.
    public static let contractProbePoints = [
        "sync.start", "download.start", "download.page.fetched", "download.page.stored",
        "download.page.saved", "download.done", "upload.start", "upload.sent", "upload.done",
        "sync.done",
    ]

    /// Probe points a trigger may name.
    public var probePoints: [String]
    /// Rule IDs `fired` may name; nil accepts any ID shaped like `SYNC-4`.
    public var ruleIDs: [String]?
    /// Engine names `engine` may name; nil accepts any identifier.
    public var engines: [String]?
    /// The states `expect DEVICE: state …` may name, written `name` or `name(detail)`
    /// (`idle`, `waiting(retryAfter)`); nil accepts any.
    public var states: [String]?
    /// The time budget of the run when the command line sets it (`--max-time`): it
    /// overrides the file's `budget time`; durations are checked against it.
    public var maxTime: TimeSpan?
    /// Per engine name, what a scenario on that engine may name; the scenario's engine
    /// (`engineOverride`, else its `engine` line, else the default) decides probe points,
    /// rule IDs, state names and statements. An engine without facts uses the fields above.
    public var engineFacts: [String: EngineFacts] = [:]
    /// The facts of engines `engineFacts` does not list, asked per engine the scenario names.
    public var engineFactsLookup: EngineFactsLookup?
    /// Statements only some engines support (`sync`, `stop`, `share`, …): each is checked
    /// against the scenario engine's `EngineFacts.statements`.
    public var engineStatements: [String] = []
    /// `--engine NAME`: the engine the scenario runs on, whatever its `engine` line says.
    public var engineOverride: String?

    public init(
        probePoints: [String] = ValidationOptions.contractProbePoints,
        ruleIDs: [String]? = nil,
        engines: [String]? = nil,
        states: [String]? = nil,
        maxTime: TimeSpan? = nil
    ) {
        self.probePoints = probePoints
        self.ruleIDs = ruleIDs
        self.engines = engines
        self.states = states
        self.maxTime = maxTime
    }

    /// What validation knows of an engine: `engineFacts`, else `engineFactsLookup`.
    public func facts(forEngine name: String) -> EngineFacts? {
        engineFacts[name] ?? engineFactsLookup?(name)
    }
}

/// Checks a parsed tree against its own schema and declarations.
public enum ScenarioValidator {
    public static func validate(
        _ scenario: ScenarioFile, options: ValidationOptions = ValidationOptions()
    ) -> [Diagnostic] {
        var validator = Validator(scenario: scenario, options: options)
        return validator.run()
    }
}

/// Parses then validates: the one call a tool needs to turn text into a checked tree.
public enum ScenarioChecker {
    public static func check(
        source: String, file: String, options: ValidationOptions = ValidationOptions()
    ) -> ParseResult {
        var result = ScenarioParser.parse(source: source, file: file)
        let parsed = Set(result.diagnostics.map(\.location))
        // One explanation per spot: the parser's, when it already spoke there.
        let validated = ScenarioValidator.validate(result.scenario, options: options)
            .filter { !parsed.contains($0.location) }
        let all = result.diagnostics + validated
        // Stable by position, so a reader sees problems in file order, each pass's own order
        // kept among problems at one spot.
        result.diagnostics = all.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }.map(\.element)
        return result
    }
}
