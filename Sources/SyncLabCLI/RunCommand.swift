import Foundation
import Harness
import Kernel
import Reporting
import Scenario

/// `synclab run FILE… [--seed N] [--trace-out PATH] [--trace-format jsonl|chrome]
/// [--junit PATH] [--max-time D] [--max-events N] [--engine NAME]`.
enum RunCommand {
    static let help = """
    USAGE: synclab run FILE... [--seed N] [--trace-out PATH] [--trace-format F]
                       [--junit PATH] [--max-time D] [--max-events N]
                       [--engine NAME]

    Runs each scenario (a folder means every .scenario file below it) and checks its
    expectations. Exit status: 0 when every expectation holds, 1 when one fails or a
    run fails at runtime, 2 on an input error (nothing runs then).
    On naive, a save made at 0 s before anything lets time pass races the launch: a
    warning (FILE:LINE:COLUMN: warning: ...).

    OPTIONS:
      --seed N           run with seed N instead of the file's seed
      --trace-out PATH   write the trace as JSON Lines to PATH (with several files,
                         PATH is a folder that receives one NAME.trace.jsonl per
                         scenario)
      --trace-format F   jsonl (default) or chrome: the Trace Event format that
                         ui.perfetto.dev and chrome://tracing open, a track per
                         device and the cloud (NAME.trace.json in a folder)
      --junit PATH       write JUnit XML of every expectation to PATH
    \(BudgetOptions.help)
      -h, --help         show this help
    """

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let seedText = options.value("--seed")
        let traceOut = options.value("--trace-out")
        let traceFormat = options.value("--trace-format") ?? "jsonl"
        let junit = options.value("--junit")
        let budget: BudgetOptions
        switch BudgetOptions.read(&options) {
        case .success(let read): budget = read
        case .failure(let problem): return usage(problem.message)
        }
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            let known = ["--seed", "--trace-out", "--trace-format", "--junit", "--help"]
                + BudgetOptions.names
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: known))")
        }
        if traceOut == nil && traceFormat != "jsonl" {
            return usage("'--trace-format' needs '--trace-out PATH'")
        }
        guard traceFormat == "jsonl" || traceFormat == "chrome" else {
            return usage("'--trace-format' takes jsonl or chrome, not '\(traceFormat)'"
                + suggestion(traceFormat, among: ["jsonl", "chrome"]))
        }
        let seed: UInt64?
        switch seedOption(seedText) {
        case .success(let parsed): seed = parsed
        case .failure(let problem): return usage(problem.message)
        }
        guard !options.positionals.isEmpty else {
            return usage("'run' needs at least one scenario file")
        }
        guard let loaded = loadScenarios(options.positionals, budget: budget) else { return 2 }
        var failed = 0
        var junitRuns: [(path: String, result: RunResult)] = []
        for (path, scenario, source) in loaded {
            let result = ScenarioRunner.run(
                scenario, source: source, options: budget.runOptions(seed: seed))
            junitRuns.append((path, result))
            let planned = plannedExpectations(scenario, engine: result.engine)
            report(result, path: path, planned: planned, rerunOptions: budget.arguments)
            if !result.passed { failed += 1 }
            if let traceOut {
                let chrome = traceFormat == "chrome"
                let target = loaded.count == 1
                    ? traceOut : traceFile(in: traceOut, for: path, chrome: chrome)
                let text = chrome
                    ? ChromeTrace.json(scenario: scenario, events: result.trace.events)
                    : result.trace.jsonLines()
                if !write(text, to: target) { return 2 }
            }
        }
        if let junit,
           !write(JUnitReport.xml(for: junitRuns, command: ProgramName.current), to: junit) {
            return 2
        }
        if loaded.count > 1 {
            print("\(loaded.count - failed) passed, \(failed) failed")
        }
        return failed == 0 ? 0 : 1
    }

    /// Every scenario the paths name, checked; nil (the errors printed) when one is not
    /// valid, after all of them have been read.
    private static func loadScenarios(
        _ paths: [String], budget: BudgetOptions
    ) -> [(path: String, scenario: ScenarioFile, source: String)]? {
        let expanded = ScenarioFiles.expand(paths)
        expanded.errors.forEach(Terminal.writeError)
        var loaded: [(path: String, scenario: ScenarioFile, source: String)] = []
        var inputError = !expanded.errors.isEmpty
        for path in expanded.files {
            if let file = ScenarioFiles.load(path, options: budget.validationOptions) {
                // A save that races the launch is a warning: the file still runs.
                LaunchRaceWarnings
                    .diagnostics(for: file.scenario, file: path, engine: budget.engine)
                    .forEach { Terminal.writeError($0.rendered) }
                loaded.append((path, file.scenario, file.source))
            } else {
                inputError = true
            }
        }
        return inputError ? nil : loaded
    }

    /// How many expectations a run on `engine` would check if it ran to the end.
    static func plannedExpectations(_ scenario: ScenarioFile, engine: String) -> Int {
        scenario.timeline.filter { statement in
            guard case .expectation(let expectation) = statement.kind else { return false }
            return expectation.applies(to: engine)
        }.count
    }

    private static func report(
        _ result: RunResult, path: String, planned: Int, rerunOptions: String = ""
    ) {
        let expectations = result.expectations.count
        for expectation in result.expectations where !expectation.passed {
            print("\(path):\(expectation.line): expectation failed: \(expectation.wanted); "
                + "found: \(expectation.found)")
        }
        if let failure = result.failure {
            print("\(path):\(failure.line): runtime error: \(failure.message) (at \(failure.time))")
        }
        if result.passed {
            print("\(Terminal.green("PASS")) \(path) (seed \(result.seed), "
                  + "\(expectations) expectations, \(result.endTime) simulated)")
            // A passing run can still leave work undone (a change that never uploaded).
            for leftover in result.leftovers { print("  leftover: \(leftover)") }
        } else {
            let failedCount = result.expectations.filter { !$0.passed }.count
            // A runtime error cuts the run short: the expectations after it never ran.
            let notReached = max(0, planned - expectations)
            let total = max(planned, expectations)
            print("\(Terminal.red("FAIL")) \(path) (seed \(result.seed), \(total) "
                  + "expectations: \(failedCount) failed"
                  + (notReached == 0 ? "" : ", \(notReached) not reached")
                  + "\(result.failure == nil ? "" : ", runtime error"))")
            for leftover in result.leftovers { print("  leftover: \(leftover)") }
            print("  rerun: \(ProgramName.current) run \(path) --seed \(result.seed)"
                + rerunOptions)
        }
    }

    private static func traceFile(in folder: String, for path: String, chrome: Bool) -> String {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let base = (path as NSString).lastPathComponent
            .replacingOccurrences(of: ".scenario", with: "")
        let suffix = chrome ? "trace.json" : "trace.jsonl"
        return (folder as NSString).appendingPathComponent("\(base).\(suffix)")
    }

    private static func write(_ text: String, to path: String) -> Bool {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            Terminal.writeError("\(path): error: cannot write the file")
            return false
        }
        return true
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "run") }
}
