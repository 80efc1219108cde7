/// The checked syntax tree of one scenario file: setup first, then the timeline.
///
/// The parser always returns one, possibly partial when the file has errors; a tree whose
/// parse and validation produced no errors is complete and consistent with its schema.
public struct ScenarioFile: Hashable, Sendable {
    /// The file name diagnostics carry, as given to the parser.
    public var file: String
    public var header: ScenarioHeader
    public var entities: [EntityDeclaration]
    public var accounts: [AccountDeclaration]
    public var devices: [DeviceDeclaration]
    /// The `cloud ...` setup statements, in file order; `cloud` gives their combined effect.
    public var cloudSettings: [CloudSetting]
    public var timeline: [TimelineStatement]
    /// The `chaos ...` statements (docs/EXPLORER.md); empty in a plain scenario.
    public var chaos = ChaosDeclarations()
    /// `budget time D` / `budget events N` (a SyncLab addition).
    public var budget = ScenarioBudget()
    /// Every duration written in the file, except the time budget's own, where it was
    /// written: none may exceed the run's time budget.
    var durations: [Located<TimeSpan>] = []
    /// `Entity.property` names whose type did not resolve; validation does not report them
    /// again as unknown where they are used.
    var unresolvedProperties: [String] = []

    public init(
        file: String,
        header: ScenarioHeader = ScenarioHeader(),
        entities: [EntityDeclaration] = [],
        accounts: [AccountDeclaration] = [],
        devices: [DeviceDeclaration] = [],
        cloudSettings: [CloudSetting] = [],
        timeline: [TimelineStatement] = []
    ) {
        self.file = file
        self.header = header
        self.entities = entities
        self.accounts = accounts
        self.devices = devices
        self.cloudSettings = cloudSettings
        self.timeline = timeline
    }

    /// The entity declared with that name, if any.
    public func entity(named name: String) -> EntityDeclaration? {
        entities.first { $0.name.value == name }
    }

    /// The device declared with that name, if any.
    public func device(named name: String) -> DeviceDeclaration? {
        devices.first { $0.name.value == name }
    }

    /// The account declared with that name, if any.
    public func account(named name: String) -> AccountDeclaration? {
        accounts.first { $0.name.value == name }
    }

    /// The cloud's configuration at time 0: the contract's defaults overridden by the setup.
    public var cloud: CloudConfiguration {
        var configuration = CloudConfiguration()
        for setting in cloudSettings {
            configuration.apply(setting.kind)
        }
        return configuration
    }
}

/// The `scenario`, `about`, `seed` and `engine` statements.
public struct ScenarioHeader: Hashable, Sendable {
    /// The `scenario "..."` title; required, so only nil in a tree with errors.
    public var title: Located<String>?
    /// The `about "..."` texts in file order; they become the report's introduction.
    public var about: [Located<String>]
    /// The `seed N` value; nil means the contract's default, 1.
    public var seed: Located<UInt64>?
    /// The `engine NAME` value; nil means the first of `engines`, else the contract's
    /// default, `sds`.
    public var engine: Located<String>?
    /// `engines A, B, …` (a SyncLab addition): the engines the story runs on, each
    /// with its own `expect [ENGINE] …` lines; empty when the file has no such line.
    public var engines: [Located<String>] = []
    /// Where the `engines` keyword is, when the file has that line.
    public var enginesLocation: SourceLocation?

    public init(
        title: Located<String>? = nil,
        about: [Located<String>] = [],
        seed: Located<UInt64>? = nil,
        engine: Located<String>? = nil
    ) {
        self.title = title
        self.about = about
        self.seed = seed
        self.engine = engine
    }

    public static let defaultSeed: UInt64 = 1
    public static let defaultEngine = "sds"

    /// The seed to run with when the command line does not override it.
    public var effectiveSeed: UInt64 { seed?.value ?? Self.defaultSeed }
    /// The engine to run when the command line names none: the `engine` line, else the
    /// first of the `engines` line, else `sds`.
    public var effectiveEngine: String {
        engine?.value ?? engines.first?.value ?? Self.defaultEngine
    }

    /// The engines the story is written for: the `engines` line, else the one engine.
    public var storyEngines: [String] {
        engines.isEmpty ? [effectiveEngine] : engines.map(\.value)
    }

    /// Whether the file carries expectations per engine (an `engines` line).
    public var isMultiEngine: Bool { !engines.isEmpty }
}
