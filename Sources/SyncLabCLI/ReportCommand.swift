import Foundation
import Harness
import Reporting
import Scenario
import SyncContract

/// `synclab report FILE… --out DIR [--format markdown|html] [--seed N] [--max-time D]
/// [--max-events N] [--engine NAME]`.
///
/// Runs scenarios and writes one report each plus an index; the files depend only on the
/// scenarios and seeds (never on the clock, the host or the current folder), so committed
/// reports change exactly when behaviour does.
enum ReportCommand {
    static let help = """
    USAGE: synclab report FILE... --out DIR [--format markdown|html] [--seed N]
                          [--max-time D] [--max-events N] [--engine NAME]

    Runs each scenario and writes a report of it into DIR, plus an index page that
    links every report with a pass or fail badge. A folder argument means every
    .scenario file below it, and its sub-folders are mirrored in DIR:
      synclab report Scenarios --out Reports
    writes Reports/tour/01-first-sync.md, ..., and Reports/index.md.

    A report holds the scenario's introduction and setup, a sequence diagram of the
    run (Mermaid in Markdown, inline SVG in HTML), the final state of every device
    and of the cloud, every expectation with its result, and the rules that fired
    with their texts. An HTML report leads with what happened and steps through
    the run event by event (keys ← and →). The same scenario and seed always give
    the same bytes.
    Exit status: 0 when every scenario passed, 1 when one failed (its report is
    written all the same), 2 on an input or output error.

    OPTIONS:
      --out DIR          the folder to write into (created when missing)
      --format FORMAT    markdown (default: .md files) or html (self-contained .html
                         files)
      --seed N           run with seed N instead of each file's seed
    \(BudgetOptions.help)
      -h, --help         show this help
    """

    /// Rule ID → the engine catalogue's text; a rule missing here is shown by its ID alone.
    static func ruleTexts(_ profile: EngineProfile) -> [String: String] {
        profile.catalogue.textsByID
    }

    /// The catalogue's weaknesses (rules that explain a lost change, a duplicate, …).
    static func weaknessIDs(_ profile: EngineProfile) -> [String] {
        profile.catalogue.rules.filter { !$0.explains.isEmpty }.map(\.id)
    }

    /// Rule IDs in the engine catalogue's order, for the list of rules that fired.
    static func ruleOrder(_ profile: EngineProfile) -> [String] { profile.catalogue.ids }

    /// The devices' and the cloud's state at the end of a run; nil until the harness
    /// exposes it, and the report says so.
    static func finalState(of result: RunResult) -> FinalState? { result.finalState }

    /// A scenario to report on and where its report goes, relative to `--out`, without
    /// the extension.
    struct Job {
        var path: String
        var output: String
    }

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let out = options.value("--out")
        let formatText = options.value("--format") ?? "markdown"
        let seedText = options.value("--seed")
        let budget: BudgetOptions
        switch BudgetOptions.read(&options) {
        case .success(let read): budget = read
        case .failure(let problem): return usage(problem.message)
        }
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            let known = ["--out", "--format", "--seed", "--help"] + BudgetOptions.names
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: known))")
        }
        guard let out else { return usage("'report' needs '--out DIR'") }
        guard let format = ReportFormat(rawValue: formatText) else {
            let names = ReportFormat.allCases.map(\.rawValue)
            return usage("'--format' takes markdown or html, not '\(formatText)'"
                + suggestion(formatText, among: names))
        }
        let seed: UInt64?
        switch seedOption(seedText) {
        case .success(let parsed): seed = parsed
        case .failure(let problem): return usage(problem.message)
        }
        guard !options.positionals.isEmpty else {
            return usage("'report' needs at least one scenario file or folder")
        }
        guard let jobs = plan(options.positionals) else { return 2 }
        return write(jobs, into: out, format: format, seed: seed, budget: budget)
    }

    /// Expands each argument on its own, so a folder's files keep their place below it.
    static func plan(_ arguments: [String]) -> [Job]? {
        var jobs: [Job] = []
        var valid = true
        var outputs: [String: String] = [:]
        for argument in arguments {
            let expanded = ScenarioFiles.expand([argument])
            expanded.errors.forEach(Terminal.writeError)
            valid = valid && expanded.errors.isEmpty
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
            let isFolder = exists && isDirectory.boolValue
            let prefix = argument.hasSuffix("/") ? argument : argument + "/"
            for path in expanded.files {
                var output = isFolder && path.hasPrefix(prefix)
                    ? String(path.dropFirst(prefix.count))
                    : (path as NSString).lastPathComponent
                if output.hasSuffix(".scenario") { output.removeLast(".scenario".count) }
                if let earlier = outputs[output] {
                    Terminal.writeError("\(path): error: its report would overwrite the one of "
                        + "'\(earlier)'; report them in separate runs")
                    valid = false
                    continue
                }
                outputs[output] = path
                jobs.append(Job(path: path, output: output))
            }
        }
        return valid ? jobs : nil
    }

    private static func write(
        _ jobs: [Job], into out: String, format: ReportFormat, seed: UInt64?,
        budget: BudgetOptions = BudgetOptions()
    ) -> Int32 {
        var loaded: [(job: Job, scenario: ScenarioFile, source: String)] = []
        for job in jobs {
            guard let file = ScenarioFiles.load(job.path, options: budget.validationOptions)
            else { return 2 }
            loaded.append((job, file.scenario, file.source))
        }
        var entries: [ReportIndex.Entry] = []
        for (job, scenario, source) in loaded {
            var options = budget.runOptions(seed: seed)
            // The HTML report's step-through shows the world after every event.
            options.recordSteps = format == .html
            let result = ScenarioRunner.run(scenario, source: source, options: options)
            let profile = EngineChoice.profile(result.engine)
            var report = ScenarioReport(
                path: job.path, scenario: scenario, source: source, result: result,
                finalState: finalState(of: result), ruleTexts: ruleTexts(profile),
                ruleOrder: ruleOrder(profile), weaknessIDs: weaknessIDs(profile))
            report.engine = result.engine
            report.command = ProgramName.current
            let relative = job.output + format.fileExtension
            let text = format == .html ? report.html() : report.markdown()
            guard ScenarioFiles.save(text, to: out, relative: relative, what: "the report") else {
                return 2
            }
            entries.append(report.indexEntry(reportPath: relative))
            let outcome = report.passed ? Terminal.green("PASS") : Terminal.red("FAIL")
            print("\(outcome) \(job.path) -> \((out as NSString).appendingPathComponent(relative))")
        }
        let index = ReportIndex(entries: entries)
        let indexName = "index" + format.fileExtension
        guard ScenarioFiles.save(format == .html ? index.html() : index.markdown(), to: out,
                                 relative: indexName, what: "the report")
        else { return 2 }
        let failed = entries.filter { !$0.passed }.count
        print("\(entries.count) reports, \(entries.count - failed) passed, \(failed) failed; "
            + "index: \((out as NSString).appendingPathComponent(indexName))")
        return failed == 0 ? 0 : 1
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "report") }
}

/// The file formats `synclab report` writes.
enum ReportFormat: String, CaseIterable {
    case markdown
    case html

    var fileExtension: String { self == .html ? ".html" : ".md" }
}
