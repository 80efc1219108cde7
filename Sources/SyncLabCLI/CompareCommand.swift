import Foundation
import Harness
import Reporting
import Scenario
import SyncContract
import SyncLab

/// `synclab compare FILE… [--engines a,b,…] [--format text|markdown|html|json] [--out DIR]
/// [--seed N] [--max-time D] [--max-events N]`.
///
/// Runs each story on each engine and shows the runs side by side; the exit status is 0
/// when every engine the story is written for met its own expectations.
enum CompareCommand {
    static let help = """
    USAGE: synclab compare FILE... [--engines A,B,...] [--format FORMAT] [--out DIR]
                           [--link-root PATH] [--seed N] [--max-time D]
                           [--max-events N]

    Runs each story (a folder means every .scenario file below it) on several
    engines and shows the runs side by side: the final state of every device and of
    the cloud, which expectations held, which rules and weaknesses fired, the
    leftovers; rows where the engines disagree are marked with '≠'. A story written
    for several engines says so with 'engines sds, naive' and scopes expectations
    with 'expect [naive] …' (docs/FORMAT.md).
      synclab compare Scenarios/compare --engines all --format markdown \\
          --out Reports/compare
    writes Reports/compare/NAME.compare.md per story and Reports/compare/README.md,
    the overview (regenerates the committed pages). In Markdown and HTML every rule
    ID links to the section of its engine's catalogue page (docs/RULES.md,
    docs/NAIVE.md, …) that lists it; the pages are read from the current folder, the
    repository.
    Exit status: 0 when every engine a story is written for (its 'engines' line,
    else its one engine) met its own expectations, 1 when one did not or a run
    failed, 2 on an input error. Runs on other engines are shown for comparison and
    never fail the command.

    OPTIONS:
      --engines A,B,...  the engines to run on (default: the story's 'engines' line,
                         else every registered engine the story can run on; 'all':
                         every registered engine, 'synclab engines')
      --format FORMAT    text (default, a table for the terminal), markdown (with a
                         Mermaid sequence diagram per engine), html (self-contained,
                         engines as columns) or json
      --out DIR          write one page per story and an overview into DIR (text:
                         stdout only)
      --link-root PATH   the repository's folder as seen from DIR, where the links
                         to the catalogue pages start (default: the way from DIR to
                         the current folder, '../..' for '--out Reports/compare')
      --seed N           run with seed N instead of each file's seed
      --max-time D       the time budget of each run (as for 'run')
      --max-events N     the event budget of each run (as for 'run')
      -h, --help         show this help
    """

    enum Format: String, CaseIterable {
        case text, markdown, html, json

        var fileExtension: String {
            switch self {
            case .text: return ".txt"
            case .markdown: return ".md"
            case .html: return ".html"
            case .json: return ".json"
            }
        }
    }

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let enginesText = options.value("--engines")
        let formatText = options.value("--format") ?? "text"
        let out = options.value("--out")
        let linkRoot = options.value("--link-root")
        let seedText = options.value("--seed")
        let budget: BudgetOptions
        switch BudgetOptions.read(&options) {
        case .success(let read): budget = read
        case .failure(let problem): return usage(problem.message)
        }
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            let known = ["--engines", "--format", "--out", "--link-root", "--seed", "--max-time",
                "--max-events", "--help"]
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: known))")
        }
        if budget.engine != nil {
            return usage("'compare' takes '--engines A,B', not '--engine'")
        }
        guard let format = Format(rawValue: formatText) else {
            let names = Format.allCases.map(\.rawValue)
            return usage("'--format' takes text, markdown, html or json, not '\(formatText)'"
                + suggestion(formatText, among: names))
        }
        if format == .text, out != nil {
            return usage("'--out' needs '--format markdown', 'html' or 'json'")
        }
        if linkRoot != nil, out == nil { return usage("'--link-root' needs '--out DIR'") }
        let seed: UInt64?
        switch seedOption(seedText) {
        case .success(let parsed): seed = parsed
        case .failure(let problem): return usage(problem.message)
        }
        let engines: [String]?
        switch chosenEngines(enginesText) {
        case .success(let chosen): engines = chosen
        case .failure(let problem): return usage(problem.message)
        }
        guard !options.positionals.isEmpty else {
            return usage("'compare' needs at least one scenario file or folder")
        }
        guard let jobs = ReportCommand.plan(options.positionals) else { return 2 }
        if out == nil, format == .html, jobs.count > 1 {
            return usage("an HTML comparison of several stories needs '--out DIR'")
        }
        var comparisons: [(job: ReportCommand.Job, comparison: EngineComparison)] = []
        for job in jobs {
            guard let comparison = compare(job.path, engines: engines, seed: seed, budget: budget)
            else { return 2 }
            comparisons.append((job, comparison))
        }
        let failed = comparisons.filter { !$0.comparison.passed }.count
        let catalogues = CataloguePages(engines: EngineChoice.registry.names)
        if let out {
            let root = linkRoot ?? CataloguePages.relativePath(from: out, to: ".")
            guard writePages(comparisons, format, to: out, root: root, catalogues: catalogues)
            else { return 2 }
        } else {
            printPages(comparisons, format, catalogues: catalogues)
        }
        // Markdown, HTML and JSON on stdout stay documents of their format.
        if out != nil || (format == .text && comparisons.count > 1) {
            print("\(comparisons.count) stories, \(comparisons.count - failed) where every engine "
                + "met its own expectations, \(failed) where one did not")
        }
        return failed == 0 ? 0 : 1
    }

    /// The engines `--engines` names: nil (each story's own 'engines' line, else every
    /// registered engine) when it is not given, every registered engine for 'all'.
    private static func chosenEngines(_ text: String?) -> Result<[String]?, UsageError> {
        if text == "all" { return .success(EngineChoice.registry.names) }
        guard let text else { return .success(nil) }
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map(String.init)
        for name in names where EngineChoice.registry.profile(named: name) == nil {
            return .failure(UsageError("unknown engine '\(name)'"
                + "\(suggestion(name, among: EngineChoice.registry.names)); "
                + "'\(ProgramName.current) engines' lists them"))
        }
        if let twice = names.enumerated().first(where: {
            names[..<$0.offset].contains($0.element)
        }) {
            return .failure(UsageError("'--engines' names '\(twice.element)' twice"))
        }
        return .success(names)
    }

    /// Writes one page per story and the overview into `out`, printing each story's
    /// outcome; false (the error printed) when a file cannot be written.
    private static func writePages(
        _ comparisons: [(job: ReportCommand.Job, comparison: EngineComparison)], _ format: Format,
        to out: String, root: String, catalogues: CataloguePages
    ) -> Bool {
        var entries: [EngineComparisonIndex.Entry] = []
        for (job, comparison) in comparisons {
            let relative = job.output + ".compare" + format.fileExtension
            var comparison = comparison
            comparison.catalogueLinks = catalogues.links(root: root, below: relative)
            comparison.missingCatalogues = catalogues.missing(among: comparison.engines)
            guard ScenarioFiles.save(render(comparison, format), to: out, relative: relative,
                                    what: "the comparison") else {
                return false
            }
            entries.append(EngineComparisonIndex.Entry(comparison: comparison, link: relative))
            let outcome = comparison.passed ? Terminal.green("PASS") : Terminal.red("FAIL")
            let written = (out as NSString).appendingPathComponent(relative)
            print("\(outcome) \(job.path) -> \(written)")
        }
        var index = EngineComparisonIndex(entries: entries)
        index.catalogueLinks = catalogues.links(root: root, below: "index")
        let (name, text): (String, String)
        switch format {
        case .markdown: (name, text) = ("README.md", index.markdown())
        case .html: (name, text) = ("index.html", index.html())
        case .json, .text:
            let documents = comparisons.map { $0.comparison.json() }
            (name, text) = ("index.json", "[" + documents.joined(separator: ",\n") + "]\n")
        }
        return ScenarioFiles.save(text, to: out, relative: name, what: "the comparison")
    }

    /// Prints every story's comparison on stdout: one JSON array, else the pages in turn.
    private static func printPages(
        _ comparisons: [(job: ReportCommand.Job, comparison: EngineComparison)], _ format: Format,
        catalogues: CataloguePages
    ) {
        if format == .json {
            print("[" + comparisons.map { $0.comparison.json() }.joined(separator: ",\n") + "]")
            return
        }
        for (index, item) in comparisons.enumerated() {
            if index > 0, format == .text { print("") }
            var comparison = item.comparison
            comparison.catalogueLinks = catalogues.links(root: ".", below: "page")
            comparison.missingCatalogues = catalogues.missing(among: comparison.engines)
            print(render(comparison, format), terminator: "")
        }
    }

    static func render(_ comparison: EngineComparison, _ format: Format) -> String {
        switch format {
        case .text: return comparison.terminal()
        case .markdown: return comparison.markdown()
        case .html: return comparison.html()
        case .json: return comparison.json() + "\n"
        }
    }

    /// Runs one story on each engine it can run on; nil (diagnostics printed) when it is not
    /// valid on an engine it is written for.
    static func compare(
        _ path: String, engines chosen: [String]?, seed: UInt64?, budget: BudgetOptions
    ) -> EngineComparison? {
        guard let source = ScenarioFiles.readSource(path) else { return nil }
        var lab = ScenarioLab(engines: EngineChoice.registry)
        lab.command = ProgramName.current
        let compared = lab.compare(source, file: path, engines: chosen, seed: seed,
                                   maxTime: budget.maxTime, maxEvents: budget.maxEvents)
        compared.diagnostics.forEach { Terminal.writeError($0) }
        return compared.comparison
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "compare") }
}
