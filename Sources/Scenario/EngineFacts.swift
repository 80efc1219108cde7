/// What the validator knows of one engine, as plain data from its callers (the Scenario
/// target knows no simulation): the names a scenario on that engine may use.
public struct EngineFacts: Hashable, Sendable {
    /// Probe points a trigger may name.
    public var probePoints: [String]
    /// Rule IDs `fired` may name (its catalogue).
    public var ruleIDs: [String]
    /// State names `expect … state` may name, argument included (`waiting(network)`).
    public var stateNames: [String]
    /// The engine-dependent statements (`ValidationOptions.engineStatements`) it supports.
    public var statements: [String]
    /// Where its catalogue is written down (`docs/RULES.md`), for messages.
    public var cataloguePage: String

    public init(
        probePoints: [String], ruleIDs: [String], stateNames: [String], statements: [String],
        cataloguePage: String = "docs/RULES.md"
    ) {
        self.probePoints = probePoints
        self.ruleIDs = ruleIDs
        self.stateNames = stateNames
        self.statements = statements
        self.cataloguePage = cataloguePage
    }
}

/// Where the validator finds the facts of an engine `ValidationOptions.engineFacts` does not
/// list: a registry's lookup, asked only for the engines a scenario names (building every
/// engine's facts would build every engine). Known by `key`: two lookups with the same key
/// give the same facts.
public struct EngineFactsLookup: Hashable, Sendable {
    public let key: [String]
    private let lookup: @Sendable (String) -> EngineFacts?

    public init(key: [String], _ lookup: @escaping @Sendable (String) -> EngineFacts?) {
        self.key = key
        self.lookup = lookup
    }

    public func callAsFunction(_ engine: String) -> EngineFacts? {
        lookup(engine)
    }

    public static func == (lhs: EngineFactsLookup, rhs: EngineFactsLookup) -> Bool {
        lhs.key == rhs.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}
