import Kernel
import Scenario
import SyncContract

/// How to run a scenario.
public struct RunOptions: Sendable {
    /// Overrides the file's seed (`--seed`).
    public var seed: UInt64?
    /// Bounds on the whole run (`--max-events`, `--max-time`); nil: the file's `budget`
    /// statements, else `ScenarioBudget`'s defaults (2,000,000 events, 30 days).
    public var maxEvents: Int?
    public var maxTime: SimTime?
    /// Keep every trace event (false only counts them, for benchmarks).
    public var recordTrace: Bool
    /// Read every device's models and every account's records into `RunResult.finalState`
    /// at the end (false leaves it empty, for benchmarks: the tables of a million records
    /// would be built on top of the simulation's state at its largest, and none reads them).
    public var recordFinalState = true
    /// Keep the world's state after every trace event in `RunResult.steps` (HTML reports).
    public var recordSteps = false
    /// The engines the run may use; the scenario's `engine` line (or `engine`) picks one.
    public var engines: EngineRegistry
    /// Overrides the file's `engine` line (`--engine NAME`).
    public var engine: String?
    /// Test-only switches for the mechanisms behind the engine's known races, by the names
    /// its profile lists (never set by the CLI).
    public var mechanisms: [String: Bool] = [:]
    /// Test-only: kill this device right after its engine's Nth disk write, in any run
    /// (the contract suite's kill between two writes).
    public var killAfterWrite: WriteKill?
    /// Test-only: false makes every probe point wait for its `.resume` event, the run that
    /// probe points passed in line must equal (World+InLineProbes.swift).
    public var probesPassInLine = true
    public var cloudRecreatesDeletedRecords = true
    public var cloudTokenlessFetchOmitsDeletions = true
    /// Called with a timeline statement's index (0-based, in `ScenarioFile.timeline`) just
    /// before the statement runs, and with `timeline.count` once the last one has run (before
    /// the leftovers and final state are read). Benchmarks use it to time one phase of a run
    /// (`synclab bench --download`); it sees nothing of the run and cannot change it.
    public var beforeStatement: (@Sendable (Int) -> Void)?

    public init(
        engines: EngineRegistry,
        seed: UInt64? = nil,
        maxEvents: Int? = nil,
        maxTime: SimTime? = nil,
        recordTrace: Bool = true
    ) {
        self.engines = engines
        self.seed = seed
        self.maxEvents = maxEvents
        self.maxTime = maxTime
        self.recordTrace = recordTrace
    }

    /// The engine a scenario runs on: `engine` if set, else the file's `engine` line.
    public func engineName(for scenario: ScenarioFile) -> String {
        engine ?? scenario.header.effectiveEngine
    }

    /// The profile of that engine, nil when the registry does not hold it.
    public func profile(for scenario: ScenarioFile) -> EngineProfile? {
        engines.profile(named: engineName(for: scenario))
    }

    /// The budget a run of `scenario` gets: these options' bounds, else the file's.
    public func budget(for scenario: ScenarioFile) -> Budget {
        Budget(
            maxTime: maxTime ?? SimTime(microseconds: scenario.budget.effectiveTime.microseconds),
            maxEvents: maxEvents ?? scenario.budget.effectiveEvents)
    }
}

/// Everything a run produced.
public struct RunResult: Sendable {
    public var file: String
    public var seed: UInt64
    /// The engine the scenario ran on.
    public var engine: String
    public var trace: Trace
    public var expectations: [ExpectationResult]
    public var failure: RuntimeFailure?
    /// What the run left behind (changes not uploaded, records set aside, unfired triggers,
    /// actions that did not complete, …), typed; `leftovers` is the same as lines.
    public var leftoverAccount: Leftovers
    /// `leftoverAccount` as one line per leftover, in its fixed order (reports print these).
    public var leftovers: [String] { leftoverAccount.lines }
    /// Rules fired anywhere, sorted.
    public var firedRules: [String]
    public var endTime: SimTime
    /// Every device's models and every account's records at the end, as text tables.
    public var finalState: FinalState
    /// How many probe points engines were resumed from in line (World+InLineProbes), each a
    /// `.resume` event that did not need the kernel's queue.
    public var probesPassedInLine = 0
    /// The state after each trace event, when `RunOptions.recordSteps` asked for it.
    public var steps: StepSnapshots?

    public var passed: Bool { failure == nil && expectations.allSatisfy(\.passed) }
}

extension RunResult {
    /// A run that could not start: its engine is not registered.
    init(unknownEngine name: String, file: String, seed: UInt64) {
        self.init(
            file: file, seed: seed, engine: name, trace: Trace(recording: true), expectations: [],
            failure: RuntimeFailure(
                line: 0, time: .zero, message: "no engine named '\(name)' is registered"),
            leftoverAccount: Leftovers(), firedRules: [], endTime: .zero,
            finalState: FinalState(devices: [], accounts: [], labels: []))
    }
}

/// Runs checked scenarios in a fresh world.
public enum ScenarioRunner {
    /// Runs a scenario whose parse and validation found no errors.
    public static func run(
        _ scenario: ScenarioFile, source: String, options: RunOptions
    ) -> RunResult {
        var copy = scenario
        return run(&copy, source: source, options: options, releasing: false)
    }

    /// Runs a scenario whose parse and validation found no errors, as `run(_:source:options:)`
    /// does, releasing each timeline statement once it has run: when the caller hands over
    /// its only copy (`run(releasing: consume scenario, …)`), a long script's statements are
    /// freed as the simulation's own state grows, so the two do not peak together (a
    /// generated script of a million inserts, `synclab bench --download`). The result is the
    /// same as `run(_:source:options:)`'s.
    public static func run(
        releasing scenario: consuming ScenarioFile, source: String, options: RunOptions
    ) -> RunResult {
        run(&scenario, source: source, options: options, releasing: true)
    }

    private static func run(
        _ scenario: inout ScenarioFile, source: String, options: RunOptions, releasing: Bool
    ) -> RunResult {
        // A chaos file describes a family of runs: run this seed's draw once (EXPLORER.md).
        if scenario.chaos.isDeclared {
            return Explorer.runOnce(scenario, source: source, options: options)
        }
        let seed = options.seed ?? scenario.header.effectiveSeed
        guard options.profile(for: scenario) != nil else {
            return RunResult(
                unknownEngine: options.engineName(for: scenario), file: scenario.file, seed: seed)
        }
        let world = World(scenario: scenario, seed: seed, options: options)
        if options.recordSteps && options.recordTrace { world.stepRecorder = StepRecorder() }
        world.fileWarnings = world.warnings(of: scenario)
        world.record("script", "run.start", [TraceField("file", .string(scenario.file)),
                                              TraceField("seed", .string(String(seed)))])
        var lines = SourceLines(source)
        var results: [ExpectationResult] = []
        world.start()
        world.run(until: .zero)
        // Taken out of the scenario, so that writing a released statement over its slot
        // copies nothing when the caller handed over its only copy.
        var timeline = scenario.timeline
        if releasing { scenario.timeline = [] }
        let count = timeline.count
        for index in 0..<count {
            guard world.failure == nil || world.goesOnAfterFailure(to: timeline[index]) else {
                break
            }
            options.beforeStatement?(index)
            let statement = timeline[index]
            if releasing {
                timeline[index] = TimelineStatement(.settle, location: statement.location)
            }
            world.run(statement, results: &results, text: lines.statementText(line: statement.line))
        }
        options.beforeStatement?(count)
        let leftovers = world.leftovers()
        world.record("script", "run.end",
                     [TraceField("leftovers", .list(leftovers.lines.map { .string($0) }))])
        var fired: Set<String> = []
        for rules in world.firedRules { fired.formUnion(rules) }
        var result = RunResult(
            file: scenario.file,
            seed: seed,
            engine: world.profile.name,
            trace: world.trace,
            expectations: results,
            failure: world.failure,
            leftoverAccount: leftovers,
            firedRules: fired.sorted(),
            endTime: world.now,
            finalState: options.recordFinalState
                ? world.finalState() : FinalState(devices: [], accounts: [], labels: [])
        )
        result.probesPassedInLine = world.probesPassedInLine
        result.steps = world.stepRecorder?.snapshots
        return result
    }

    /// The statement as written, without its comment and surrounding blanks.
    public static func statementText(_ line: Substring) -> String {
        var inString = false
        var escaped = false
        var end = line.endIndex
        for index in line.indices {
            let character = line[index]
            if escaped { escaped = false; continue }
            if character == "\\" && inString { escaped = true; continue }
            if character == "\"" { inString.toggle(); continue }
            if character == "#" && !inString { end = index; break }
        }
        return line[line.startIndex..<end].trimmingBlanks()
    }
}

/// The lines of a scenario's text, read in place as the timeline walks forward: a statement's
/// text without an array of every line (a million lines are 32 MB of substrings).
struct SourceLines {
    private let source: Substring
    /// The start of line `line`, the last line found.
    private var start: Substring.Index
    private var line = 1

    init(_ source: String) {
        self.source = source[...]
        start = self.source.startIndex
    }

    /// The statement written on that line (`ScenarioRunner.statementText`), "" past the end
    /// of the text. Cheap for lines in increasing order, as the timeline's are.
    mutating func statementText(line wanted: Int) -> String {
        guard wanted >= 1 else { return "" }
        if wanted < line {
            start = source.startIndex
            line = 1
        }
        while line < wanted {
            guard let newline = source[start...].firstIndex(of: "\n") else { return "" }
            start = source.index(after: newline)
            line += 1
        }
        let end = source[start...].firstIndex(of: "\n") ?? source.endIndex
        return ScenarioRunner.statementText(source[start..<end])
    }
}

extension Substring {
    func trimmingBlanks() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" {
            text.removeFirst()
        }
        while let last = text.last, last == " " || last == "\t" || last == "\r" {
            text.removeLast()
        }
        return String(text)
    }
}
