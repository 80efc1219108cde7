import Foundation
import Harness
import Kernel
import Scenario

/// `synclab explore FILE`: runs the seeds of a chaos file, checks every run, classifies what
/// breaks (explained by a weakness of the engine, or a new finding), shrinks new findings to plain
/// scenarios and prints a summary. `synclab explore merge` adds shard summaries up.
enum ExploreCommand {
    static let help = """
    USAGE: synclab explore FILE [--seeds N | --from A --to B | --seed S] [--jobs J]
                          [--shard I/N] [--doublecheck] [--out DIR] [--json PATH]
                          [--shrink-limit K] [--shrink-runs R] [--shrink-explained]
                          [--max-time D] [--max-events N] [--engine NAME]
           synclab explore --swarm --engine NAME [FILE] [the options above]
                          [--guided [--pilot P] | --mutation SPEC]
           synclab explore merge RESULT.json... [--json OUT]

    Runs each seed's draw of a chaos file (docs/EXPLORER.md): the file's timeline, a
    fault phase of random operations and faults, a heal phase, then the checkers
    (convergence, lost saved changes, duplicate identities, resurrections,
    liveness). A violation is explained when a weakness of the engine's catalogue
    (sds: LIM-*) that accounts for it fired in the run, a new finding otherwise. New
    findings are shrunk to plain scenarios that 'synclab run' can replay.
    With --swarm, no file is needed: each seed draws its own world (schema
    features, devices, operation mix, fault kinds and rates, latency) within what
    the engine accepts, and findings shrink to scenarios that name the features.
    A FILE given with --swarm keeps its schema, accounts and devices; only the
    workload, mix and faults are drawn.
    Exit status: 0 when no new finding, 1 when there is one (or a budget failure, or
    a --doublecheck divergence), 2 on an input error.

    OPTIONS:
      --seeds N           seeds 1 to N (default 100)
      --from A --to B     seeds A to B, both included
      --seed S            seed S alone
      --jobs J            run on J threads (default 1); results are identical for
                          any J
      --shard I/N         only the seeds s with s % N == I - 1 (for CI job matrices)
      --doublecheck       run every seed twice; stop at the first trace divergence
      --out DIR           write DIR/results.json (every seed) and the shrunk
                          scenarios
      --json PATH         write the summary as JSON (what 'explore merge' reads)
      --shrink-limit K    shrink the first K findings by seed (default 10; 0: none)
      --shrink-runs R     at most R runs to shrink one finding (default 400)
      --shrink-explained  shrink explained violations too
      --swarm             draw each seed's world instead of reading a chaos file
      --guided            with --swarm: run a pilot of the first seeds, keep the
                          worlds that reached something new, and let later seeds
                          rerun them with part of their chance redrawn
      --pilot P           the pilot's seeds (default a fifth of the range, 50 to
                          2000)
      --mutation SPEC     with --swarm: rerun a guided seed as the sweep printed it
                          (parent=P,keep=world+times,boost=K)
    \(BudgetOptions.help)
      -h, --help          show this help
    """

    static let optionNames = [
        "--seeds", "--from", "--to", "--seed", "--jobs", "--shard", "--doublecheck", "--out",
        "--json", "--shrink-limit", "--shrink-runs", "--shrink-explained", "--swarm", "--help",
        "--guided", "--pilot", "--mutation",
    ] + BudgetOptions.names

    /// Everything the command line asked for.
    struct Request {
        var path: String
        var selection: SeedSelection
        var jobs = 1
        var doublecheck = false
        var out: String?
        var json: String?
        var shrinkLimit = 10
        var options = ExploreOptions(engines: EngineChoice.registry)
        var budget = BudgetOptions()
        var swarm = false
        /// `--guided`, with the pilot's size when `--pilot` gave it.
        var guided = false
        var pilot: Int?
        var mutation: SwarmMutation?
    }

    static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == "merge" { return merge(Array(arguments.dropFirst())) }
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let request: Request
        switch parse(&options) {
        case .success(let parsed): request = parsed
        case .failure(let problem): return usage(problem.message)
        }
        if request.swarm { return exploreSwarm(request) }
        guard let (scenario, source) = ScenarioFiles.load(
            request.path, options: request.budget.validationOptions)
        else { return 2 }
        guard scenario.chaos.workload != nil else {
            // A file with chaos lines but no workload is an input error of the validator
            // (chaos-needs-workload); this one has no chaos line at all.
            Terminal.writeError("\(request.path):1:1: error: no 'chaos workload' line: nothing "
                + "to explore; add 'chaos workload N operations' (docs/EXPLORER.md) or run a "
                + "plain scenario with '\(ProgramName.current) run'")
            return 2
        }
        return explore(request, scenario: scenario, source: source)
    }

    struct UsageProblem: Error {
        let message: String
    }

    private static func parse(_ options: inout CommandLineOptions)
        -> Result<Request, UsageProblem>
    {
        let seeds = options.value("--seeds")
        let from = options.value("--from")
        let to = options.value("--to")
        let seed = options.value("--seed")
        let jobs = options.value("--jobs")
        let shard = options.value("--shard")
        let out = options.value("--out")
        let json = options.value("--json")
        let shrinkLimit = options.value("--shrink-limit")
        let shrinkRuns = options.value("--shrink-runs")
        let doublecheck = options.flag("--doublecheck")
        let shrinkExplained = options.flag("--shrink-explained")
        let swarm = options.flag("--swarm")
        let guided = options.flag("--guided")
        let pilot = options.value("--pilot")
        let mutation = options.value("--mutation")
        func fail(_ message: String) -> Result<Request, UsageProblem> {
            .failure(UsageProblem(message: message))
        }
        let budget: BudgetOptions
        switch BudgetOptions.read(&options) {
        case .success(let read): budget = read
        case .failure(let problem): return fail(problem.message)
        }
        if let problem = options.problem { return fail(problem) }
        if let unknown = options.unknownOption {
            return fail("unknown option '\(unknown)'\(suggestion(unknown, among: optionNames))")
        }
        if swarm {
            guard options.positionals.count <= 1 else {
                return fail("'explore --swarm' takes at most one file (its schema and devices)")
            }
            guard budget.engine != nil else { return fail(ProgramName.engineMissing) }
        }
        guard swarm || options.positionals.count == 1,
            let path = swarm ? options.positionals.first ?? "" : options.positionals.first
        else {
            return fail(options.positionals.isEmpty ? "'explore' needs a chaos file"
                : "'explore' takes one chaos file, not \(options.positionals.count)")
        }
        let selection: SeedSelection
        switch seedSelection(seeds: seeds, from: from, to: to, seed: seed, shard: shard) {
        case .success(let chosen): selection = chosen
        case .failure(let problem): return .failure(problem)
        }
        var request = Request(path: path, selection: selection)
        if let problem = readGuidance(
            guided: guided, pilot: pilot, mutation: mutation, swarm: swarm, into: &request) {
            return .failure(problem)
        }
        if let problem = readCounts(
            jobs: jobs, shrinkLimit: shrinkLimit, shrinkRuns: shrinkRuns, into: &request) {
            return .failure(problem)
        }
        request.options.shrinkExplained = shrinkExplained
        request.budget = budget
        request.options.maxTime = budget.maxTime
        request.options.maxEvents = budget.maxEvents
        request.options.engine = budget.engine
        request.doublecheck = doublecheck
        request.out = out
        request.json = json
        request.swarm = swarm
        return .success(request)
    }

    /// The seeds `--seeds`, `--from/--to` or `--seed` (at most one of them; default 1 to
    /// 100) and `--shard` choose.
    private static func seedSelection(
        seeds: String?, from: String?, to: String?, seed: String?, shard: String?
    ) -> Result<SeedSelection, UsageProblem> {
        func fail(_ message: String) -> Result<SeedSelection, UsageProblem> {
            .failure(UsageProblem(message: message))
        }
        let chosen = [seeds != nil, from != nil || to != nil, seed != nil].filter { $0 }.count
        guard chosen <= 1 else { return fail("give one of '--seeds', '--from/--to', '--seed'") }
        var range: (UInt64, UInt64) = (1, 100)
        if let seeds {
            guard let count = UInt64(seeds), count > 0 else {
                return fail("'--seeds' takes a positive number, not '\(seeds)'")
            }
            range = (1, count)
        } else if from != nil || to != nil {
            guard let fromText = from, let toText = to else {
                return fail("'--from' and '--to' go together")
            }
            guard let low = UInt64(fromText), let high = UInt64(toText), low <= high else {
                return fail("'--from A --to B' takes whole numbers with A <= B")
            }
            range = (low, high)
        } else if let seed {
            guard let single = UInt64(seed) else {
                return fail("'--seed' takes a whole number, not '\(seed)'")
            }
            range = (single, single)
        }
        var shardIndex: Int?
        var shardCount: Int?
        if let shard {
            let parts = shard.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let index = parts[0], let count = parts[1],
                count >= 1, (1...count).contains(index)
            else { return fail("'--shard' takes I/N with 1 <= I <= N, not '\(shard)'") }
            (shardIndex, shardCount) = (index, count)
        }
        return .success(SeedSelection(
            from: range.0, to: range.1, shardIndex: shardIndex, shardCount: shardCount))
    }

    /// Reads `--jobs`, `--shrink-limit` and `--shrink-runs` into the request; the first
    /// problem, if any.
    private static func readCounts(
        jobs: String?, shrinkLimit: String?, shrinkRuns: String?, into request: inout Request
    ) -> UsageProblem? {
        if let jobs {
            guard let count = Int(jobs), count >= 1, count <= 256 else {
                return UsageProblem(message: "'--jobs' takes a number from 1 to 256, not '\(jobs)'")
            }
            request.jobs = count
        }
        if let shrinkLimit {
            guard let limit = Int(shrinkLimit), limit >= 0 else {
                return UsageProblem(
                    message: "'--shrink-limit' takes a number from 0, not '\(shrinkLimit)'")
            }
            request.shrinkLimit = limit
        }
        if let shrinkRuns {
            guard let runs = Int(shrinkRuns), runs >= 0 else {
                return UsageProblem(
                    message: "'--shrink-runs' takes a number from 0, not '\(shrinkRuns)'")
            }
            request.options.shrinkRuns = runs
        }
        return nil
    }

    // MARK: Exploring

    /// One seed's outcome in a worker: its result, or where its two runs diverged.
    enum SeedOutcome: Sendable {
        case result(SeedResult)
        case diverged(UInt64, TraceDivergence)
    }

    private static func explore(_ request: Request, scenario: ScenarioFile, source: String)
        -> Int32
    {
        let seeds = request.selection.seeds
        let explorer = Explorer(scenario: scenario, source: source, options: request.options)
        let runs = seeds.count == 1 ? "1 run" : "\(seeds.count) runs"
        print("\(ProgramName.current) explore \(request.path): \(request.selection) (\(runs)), "
            + "\(request.jobs) job\(request.jobs == 1 ? "" : "s")"
            + (request.doublecheck ? ", doublecheck" : ""))
        let makeExplorer = worker(
            path: request.path, source: source, options: request.options,
            validation: request.budget.validationOptions)
        let doublecheck = request.doublecheck
        let bar = ProgressBar(total: seeds.count, label: "seeds")
        // The calling thread runs with the explorer made from the file's first parse (the
        // started threads parse their own, to share no reference-counted state).
        let outcomes = ExploreWorkers<Explorer, SeedOutcome>(count: seeds.count).run(
            jobs: request.jobs, context: makeExplorer, callerContext: explorer,
            work: { explorer, index in
                let seed = seeds[index]
                guard doublecheck else { return .result(explorer.run(seed: seed)) }
                let (result, divergence) = explorer.runTwice(seed: seed)
                return divergence.map { .diverged(seed, $0) } ?? .result(result)
            },
            stop: { outcome in
                if case .diverged = outcome { return true }
                return false
            },
            progress: bar.update)
        bar.finish()
        var results: [SeedResult] = []
        for outcome in outcomes {
            switch outcome {
            case .result(let result)?:
                results.append(result)
            case .diverged(let seed, let divergence)?:
                print("seed \(seed): the two runs diverged at \(divergence)")
                print("  rerun: \(ProgramName.current) explore \(request.path) --seed \(seed) "
                    + "--doublecheck"
                    + request.budget.arguments)
                return 1
            case nil:
                break
            }
        }
        let shrunk = shrink(results, request: request, makeExplorer: makeExplorer)
        for index in results.indices {
            results[index].shrunk = shrunk[results[index].seed]?.report
        }
        let summary = ExploreSummary(
            file: request.path, digest: explorer.sourceDigest, selection: request.selection,
            results: results)
        report(results, summary: summary, request: request)
        guard write(results, summary: summary, shrunk: shrunk, request: request) else { return 2 }
        return summary.hasFindings ? 1 : 0
    }

    /// Makes one worker's explorer from the source, so threads share nothing.
    static func worker(
        path: String, source: String, options: ExploreOptions,
        validation: ValidationOptions? = nil
    ) -> @Sendable () -> Explorer {
        let validation = validation ?? options.validationOptions
        return {
            let checked = ScenarioChecker.check(
                source: source, file: path, options: validation)
            return Explorer(scenario: checked.scenario, source: source, options: options)
        }
    }

    /// Shrinks the first findings (by seed), in parallel; keyed by seed.
    private static func shrink(
        _ results: [SeedResult], request: Request,
        makeExplorer: @escaping @Sendable () -> Explorer
    ) -> [UInt64: ShrunkScenario] {
        shrinkFindings(results, request: request, context: makeExplorer) { explorer, result in
            explorer.shrink(result)
        }
    }

    /// The first findings (by seed) shrunk in parallel, each worker with its own context.
    static func shrinkFindings<Context>(
        _ results: [SeedResult], request: Request,
        context makeContext: @escaping @Sendable () -> Context,
        shrink: @escaping @Sendable (inout Context, SeedResult) -> ShrunkScenario?
    ) -> [UInt64: ShrunkScenario] {
        let chosen = Array(results.filter { result in
            result.outcome == .newFinding || result.outcome == .budgetFailure
                || (request.options.shrinkExplained && result.outcome == .explained)
        }.prefix(request.shrinkLimit))
        guard !chosen.isEmpty else { return [:] }
        let bar = ProgressBar(total: chosen.count, label: "shrunk")
        let shrunk = ExploreWorkers<Context, ShrunkScenario?>(count: chosen.count).run(
            jobs: request.jobs, context: makeContext,
            work: { context, index in shrink(&context, chosen[index]) },
            progress: bar.update)
        bar.finish()
        var bySeed: [UInt64: ShrunkScenario] = [:]
        for (result, scenario) in zip(chosen, shrunk) {
            if let scenario = scenario ?? nil { bySeed[result.seed] = scenario }
        }
        return bySeed
    }

    // MARK: Output

    /// Shown per finding; the rest are counted.
    static let findingsShown = 20

    static func report(_ results: [SeedResult], summary: ExploreSummary, request: Request) {
        let findings = results.filter { result in
            result.outcome == .newFinding || result.outcome == .budgetFailure
                || result.shrunk != nil
        }
        for result in findings.prefix(findingsShown) {
            let first = result.violations.first { !$0.isExplained } ?? result.violations[0]
            let explained = first.isExplained
                ? " (\(first.explainedBy.joinedText(separator: ", ")))" : ""
            print("seed \(result.seed): \(result.outcome.rawValue)\(explained) — "
                + "\(first.check.rawValue): " + first.message)
            print("  rerun: \(ProgramName.current) explore \(request.path) --seed \(result.seed)"
                + request.budget.arguments + mutationArgument(result))
            if let shrunk = result.shrunk {
                let location = request.out.map { folder in
                    (folder as NSString).appendingPathComponent(shrunk.file)
                } ?? shrunk.file
                print("  shrunk: \(shrunk.stepsBefore) → \(shrunk.stepsAfter) steps in "
                    + "\(shrunk.runs) runs\(shrunk.reproduces ? "" : " (does not reproduce)")"
                    + (request.out == nil ? " (use --out DIR to keep it)"
                        : "; \(ProgramName.current) run \(location)"))
            }
        }
        if findings.count > findingsShown {
            print("… and \(findings.count - findingsShown) more (see --out DIR)")
        }
        print(table(summary))
        explainedSeeds(results, summary: summary, request: request).forEach { print($0) }
    }

    /// Seeds listed for each explaining weakness before `…`.
    static let explainedSeedsShown = 8

    /// Per weakness that explained runs: its seeds (the first few) and the line that reruns
    /// the first, so that an explained run can be looked at without a search.
    static func explainedSeeds(
        _ results: [SeedResult], summary: ExploreSummary, request: Request
    ) -> [String] {
        var lines: [String] = []
        for entry in summary.explainedBy {
            let explained = results.filter { result in
                result.outcome == .explained && result.explainedBy.contains(entry.name)
            }.sorted { $0.seed < $1.seed }
            let seeds = explained.map(\.seed)
            guard let first = seeds.first else { continue }
            let shown = seeds.prefix(explainedSeedsShown).map(String.init)
                .joinedText(separator: ", ")
            lines.append("explained by \(entry.name): seeds \(shown)"
                + (seeds.count > explainedSeedsShown ? ", …" : ""))
            lines.append("  rerun: \(ProgramName.current) explore \(request.path) --seed \(first)"
                + request.budget.arguments + mutationArgument(explained[0]))
        }
        return lines
    }

    /// The summary as the aligned table the command prints.
    static func table(_ summary: ExploreSummary) -> String {
        var rows: [(String, Int)] = [("runs", summary.runs), ("clean", summary.clean),
            ("explained", summary.explained)]
        rows += summary.explainedBy.map { ("  by \($0.name)", $0.runs) }
        rows += [("new findings", summary.newFindings)]
        rows += summary.findingsByCheck.map { ("  \($0.name)", $0.runs) }
        rows += [("budget failures", summary.budgetFailures)]
        var lines = rows.map { name, count in
            let label = name + String(repeating: " ", count: max(1, 24 - name.count))
            let number = String(count)
            return "  " + label + String(repeating: " ", count: max(0, 8 - number.count)) + number
        }
        let observed = summary.observed.map { "\($0.name) in \($0.runs)" }
        lines.append("  weaknesses observed: " + (observed.isEmpty ? "none"
            : observed.joinedText(separator: ", ") + " run(s)"))
        return lines.joinedText(separator: "\n")
    }

    /// `--out DIR/results.json` (every seed) and the shrunk scenarios, `--json` the summary.
    static func write(
        _ results: [SeedResult], summary: ExploreSummary, shrunk: [UInt64: ShrunkScenario],
        request: Request
    ) -> Bool {
        if let folder = request.out {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true)
            } catch {
                Terminal.writeError("\(folder): error: cannot create the folder")
                return false
            }
            let all = ExploreResults(summary: summary, seeds: results)
            guard let data = encode(all),
                save(data, to: (folder as NSString).appendingPathComponent("results.json"))
            else { return false }
            for seed in shrunk.keys.sorted() {
                guard let scenario = shrunk[seed] else { continue }
                let path = (folder as NSString).appendingPathComponent(scenario.report.file)
                guard save(Data(scenario.text.utf8), to: path) else { return false }
            }
        }
        if let path = request.json {
            guard let data = encode(summary), save(data, to: path) else { return false }
        }
        return true
    }

    /// Every seed's result and the summary: what `--out` writes as `results.json`.
    struct ExploreResults: Codable {
        var summary: ExploreSummary
        var seeds: [SeedResult]
    }

    static func encode<T: Encodable>(_ value: T) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(value) else { return nil }
        data.append(contentsOf: Array("\n".utf8))
        return data
    }

    private static func save(_ data: Data, to path: String) -> Bool {
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            Terminal.writeError("\(path): error: cannot write the file")
            return false
        }
        return true
    }

    // MARK: Merge

    private static func merge(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let json = options.value("--json")
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: ["--json"]))")
        }
        guard !options.positionals.isEmpty else {
            return usage("'explore merge' needs result files (from '--json' or '--out')")
        }
        var parts: [ExploreSummary] = []
        let decoder = JSONDecoder()
        for path in options.positionals {
            guard let data = FileManager.default.contents(atPath: path) else {
                Terminal.writeError("\(path): error: cannot read the file")
                return 2
            }
            if let all = try? decoder.decode(ExploreResults.self, from: data) {
                parts.append(all.summary)
            } else if let summary = try? decoder.decode(ExploreSummary.self, from: data) {
                parts.append(summary)
            } else {
                Terminal.writeError("\(path): error: not a summary of 'synclab explore'")
                return 2
            }
        }
        let merged: ExploreSummary
        do {
            merged = try ExploreSummary.merge(parts)
        } catch {
            Terminal.writeError("\(ProgramName.current): error: cannot merge: \(error.description)")
            return 2
        }
        print("\(ProgramName.current) explore merge: \(merged.file), "
            + merged.selections.map(\.description).joined(separator: "; "))
        print(table(merged))
        if !merged.newFindingSeeds.isEmpty {
            print("new findings in seeds: "
                + merged.newFindingSeeds.map(String.init).joined(separator: ", "))
        }
        if let json {
            guard let data = encode(merged), save(data, to: json) else { return 2 }
        }
        return merged.hasFindings ? 1 : 0
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "explore") }
}

// MARK: Benchmark

extension ExploreCommand {
    /// The chaos file `synclab bench` measures (docs/BENCH.md, "explore").
    static let benchmarkFile = "Scenarios/explore/swarm.chaos"

    /// `synclab bench`'s explore figure: seeds per second of a chaos file's sweep with
    /// `--jobs 1` and `--jobs 2` (no shrinking), medians over `repetitions`, and their ratio.
    /// Returns 2 when the file cannot be read, else 0.
    static func benchmark(file: String = benchmarkFile, seeds: Int, repetitions: Int) -> Int32 {
        precondition(seeds > 0 && repetitions > 0, "a benchmark needs seeds and repetitions")
        guard let (scenario, source) = ScenarioFiles.load(file),
            let workload = scenario.chaos.workload
        else { return 2 }
        let makeExplorer = worker(
            path: file, source: source, options: ExploreOptions(engines: EngineChoice.registry))
        var rates: [Int: [Double]] = [:]
        for _ in 0..<repetitions {
            for jobs in [1, 2] {
                let clock = ContinuousClock()
                let start = clock.now
                let results = ExploreWorkers<Explorer, SeedResult>(count: seeds).run(
                    jobs: jobs, context: makeExplorer,
                    work: { explorer, index in explorer.run(seed: UInt64(index + 1)) },
                    progress: { _ in })
                precondition(results.allSatisfy { $0 != nil }, "a benchmark seed did not run")
                let elapsed = clock.now - start
                let seconds = Double(elapsed.components.seconds)
                    + Double(elapsed.components.attoseconds) / 1e18
                rates[jobs, default: []].append(Double(seeds) / seconds)
            }
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let one = median(rates[1] ?? [])
        let two = median(rates[2] ?? [])
        let devices = ChaosWorkloadDescription.devices(of: scenario)
        func format(_ value: Double, _ digits: Int) -> String {
            String(format: "%.\(digits)f", value)
        }
        print("explore   \(file)  \(devices) devices, \(workload.operations.value) operations, "
            + "seeds 1...\(seeds)  median jobs 1: \(format(one, 1)) seeds/s, "
            + "jobs 2: \(format(two, 1)) seeds/s (x\(format(two / one, 2)))")
        return 0
    }
}

/// Counts for the benchmark's line.
enum ChaosWorkloadDescription {
    /// The devices a chaos workload acts with.
    static func devices(of scenario: ScenarioFile) -> Int {
        let named = scenario.chaos.workload?.devices.map(\.value) ?? []
        return scenario.devices.filter { device in
            device.account != nil && (named.isEmpty || named.contains(device.name.value))
        }.count
    }
}
