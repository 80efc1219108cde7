import Engines
import Kernel
import Scenario

/// How to run a scenario.
public struct RunOptions: Hashable, Sendable {
    /// Overrides the file's seed (`--seed`).
    public var seed: UInt64?
    /// Bounds on the whole run (`--max-events`, `--max-time`); nil: the file's `budget`
    /// statements, else `ScenarioBudget`'s defaults (2,000,000 events, 30 days).
    public var maxEvents: Int?
    public var maxTime: SimTime?
    /// Keep every trace event (false only counts them, for benchmarks).
    public var recordTrace: Bool
    /// Test-only switches for the mechanisms behind the known races (never set by the CLI).
    public var mechanisms = SDSMechanisms()
    public var cloudRecreatesDeletedRecords = true
    public var cloudTokenlessFetchOmitsDeletions = true

    public init(
        seed: UInt64? = nil,
        maxEvents: Int? = nil,
        maxTime: SimTime? = nil,
        recordTrace: Bool = true
    ) {
        self.seed = seed
        self.maxEvents = maxEvents
        self.maxTime = maxTime
        self.recordTrace = recordTrace
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

    public var passed: Bool { failure == nil && expectations.allSatisfy(\.passed) }
}

/// Runs checked scenarios in a fresh world.
public enum ScenarioRunner {
    /// The validation options that match what the harness and its engines can run: the
    /// engine's probe points, the rule catalogue's IDs and the states the engine shows.
    public static var validationOptions: ValidationOptions { validationOptions() }

    /// The same, with the time budget the command line sets (`--max-time`), if any.
    public static func validationOptions(maxTime: SimTime? = nil) -> ValidationOptions {
        ValidationOptions(
            probePoints: SDSEngine.probePoints, ruleIDs: RuleCatalogue.rules.map(\.id),
            engines: [SDSEngine.name], states: engineStates,
            maxTime: maxTime.map { TimeSpan(microseconds: $0.microseconds) })
    }

    /// Every state `expect DEVICE: state …` can observe: the harness's own (`not-running`,
    /// `signed-out`) and those `SDSEngine.state` returns (docs/ENGINE.md, "States").
    public static let engineStates = [
        EngineState.notRunning, .signedOut, .stopped, .syncing, .idle,
        EngineState("waiting", "retryAfter"), EngineState("waiting", "network"),
        EngineState("error", "userDeletedZone"), EngineState("paused", "quotaExceeded"),
        EngineState("error", "incompleteUpload"),
    ].map(\.description)

    /// Runs a scenario whose parse and validation found no errors.
    public static func run(_ scenario: ScenarioFile, source: String, options: RunOptions = RunOptions()) -> RunResult {
        // A chaos file describes a family of runs: run this seed's draw once (EXPLORER.md).
        if scenario.chaos.isDeclared {
            return Explorer.runOnce(scenario, source: source, options: options)
        }
        let seed = options.seed ?? scenario.header.effectiveSeed
        let world = World(scenario: scenario, seed: seed, options: options)
        world.record("script", "run.start", [TraceField("file", .string(scenario.file)),
                                              TraceField("seed", .string(String(seed)))])
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var results: [ExpectationResult] = []
        world.start()
        world.run(until: .zero)
        for statement in scenario.timeline {
            guard world.failure == nil else { break }
            let text = statement.line - 1 < lines.count ? statementText(lines[statement.line - 1]) : ""
            world.run(statement, results: &results, text: text)
        }
        let leftovers = world.leftovers()
        world.record("script", "run.end",
                     [TraceField("leftovers", .list(leftovers.lines.map { .string($0) }))])
        var fired: Set<String> = []
        for rules in world.firedRules { fired.formUnion(rules) }
        return RunResult(
            file: scenario.file,
            seed: seed,
            trace: world.trace,
            expectations: results,
            failure: world.failure,
            leftoverAccount: leftovers,
            firedRules: fired.sorted(),
            endTime: world.now,
            finalState: world.finalState()
        )
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

extension Substring {
    func trimmingBlanks() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
