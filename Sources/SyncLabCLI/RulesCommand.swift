import Harness
import Scenario
import SyncContract

/// `synclab rules`: the rule catalogue with the scenarios that make each rule fire, and
/// `synclab rules --check DIR`, which fails naming the rules no scenario exercises.
///
/// Whether a scenario makes a rule fire is found by running it, not by reading its
/// `expect … fired` lines: a rule counts only when the run fired it and the scenario passed,
/// so a scenario that stopped checking what it claims cannot keep a rule covered.
enum RulesCommand {
    static let help = """
    USAGE: synclab rules [--engine NAME] [--scenarios DIR] [--group G]...
           synclab rules [--engine NAME] --check DIR [--group G]...

    Lists every rule of an engine's catalogue (default sds: docs/RULES.md) with its
    text, grouped, and the scenarios that make it fire (only scenarios on that
    engine run). Every scenario below the folder is run: it counts for a rule when
    the rule fired during the run and the scenario passed; one that fires a rule but
    fails is shown apart and does not count.

    With --check, prints one line for each rule that no passing scenario below DIR
    makes fire, in catalogue order:
      RULE-ID: no scenario in DIR makes it fire — TEXT
    Exit status: 0 when every rule fires, 1 when one does not, 2 on an input error
    (a missing folder, an invalid scenario, an unknown group); nothing is checked
    then.

    OPTIONS:
      --scenarios DIR   the scenarios to run for the listing (default Scenarios;
                        when that folder does not exist, the catalogue is listed
                        without scenarios)
      --check DIR       check that the scenarios below DIR make every rule fire
      --engine NAME     the engine whose catalogue is listed or checked
                        ('synclab engines')
      --group G         only the rules of group G (sds: SYNC, DL, HDO, ADOPT, DEL,
                        SCHEMA, EXT, LIFE, ACCT, ERR, BIG, CFG, ID, LIM); repeat for
                        several groups
      -h, --help        show this help
    """

    static let optionNames = ["--scenarios", "--check", "--group", "--engine", "--help"]
    static let defaultFolder = "Scenarios"
    /// The width listings are wrapped to.
    static var lineWidth: Int { Terminal.width }

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let checkFolder = options.value("--check")
        let scenariosFolder = options.value("--scenarios")
        let engine: String?
        switch EngineChoice.read(&options) {
        case .success(let name): engine = name
        case .failure(let error): return usage(error.message)
        }
        let profile = EngineChoice.profile(engine)
        var groupNames: [String] = []
        // Each pass removes the option it reads, so this ends within the argument count.
        while groupNames.count <= arguments.count, let group = options.value("--group") {
            groupNames.append(group)
        }
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: optionNames))")
        }
        if let stray = options.positionals.first {
            return usage("'rules' takes no file names, not '\(stray)'; use '--check \(stray)'")
        }
        if checkFolder != nil && scenariosFolder != nil {
            return usage("'--check DIR' names the scenarios already; leave out '--scenarios'")
        }
        let groups: [String]
        switch selectedGroups(groupNames, catalogue: profile.catalogue) {
        case .success(let selected): groups = selected
        case .failure(let problem): return usage(problem.message)
        }
        if let checkFolder {
            return check(folder: checkFolder, groups: groups, profile: profile)
        }
        return list(folder: scenariosFolder ?? defaultFolder,
                    folderIsDefault: scenariosFolder == nil, groups: groups, profile: profile)
    }

    /// A problem with the command line, as a message for `usage`.
    struct UsageProblem: Error {
        let message: String
    }

    /// The groups named by `--group` (upper-cased, in catalogue order, each once), or every
    /// group when none was named.
    static func selectedGroups(
        _ names: [String], catalogue: RuleCatalogue
    ) -> Result<[String], UsageProblem> {
        let known = catalogue.groups
        for name in names where !known.contains(name.uppercased()) {
            let hint = suggestion(name.uppercased(), among: known)
            return .failure(UsageProblem(message: "unknown group '\(name)'\(hint)"))
        }
        guard !names.isEmpty else { return .success(known) }
        let wanted = names.map { $0.uppercased() }
        return .success(known.filter { wanted.contains($0) })
    }

    // MARK: Running the scenarios

    /// Runs every scenario below `folder` that runs on the profile's engine; nil after an
    /// input error, whose diagnostics were printed (every file is read first, so all of them
    /// are reported in one pass).
    static func coverage(of folder: String, profile: EngineProfile) -> RuleCoverage? {
        let expanded = ScenarioFiles.expand([folder])
        expanded.errors.forEach(Terminal.writeError)
        var loaded: [(path: String, scenario: ScenarioFile, source: String)] = []
        var inputError = !expanded.errors.isEmpty
        for path in expanded.files {
            if let file = ScenarioFiles.load(path) {
                guard file.scenario.header.effectiveEngine == profile.name else { continue }
                loaded.append((path, file.scenario, file.source))
            } else {
                inputError = true
            }
        }
        if inputError { return nil }
        var coverage = RuleCoverage(catalogue: profile.catalogue)
        // The trace is not needed: the rules fired are kept apart from it.
        var options = EngineChoice.runOptions(engine: nil, seed: nil)
        options.recordTrace = false
        for (path, scenario, source) in loaded {
            let result = ScenarioRunner.run(scenario, source: source, options: options)
            coverage.add(path: path, firedRules: result.firedRules, passed: result.passed)
        }
        for unknown in coverage.unknownRules {
            Terminal.writeError("\(unknown.path): warning: the run fired '\(unknown.rule)', "
                + "which is not in the rule catalogue of engine '\(profile.name)'")
        }
        return coverage
    }

    // MARK: --check

    /// `--check DIR`: one line per rule of `groups` that no passing scenario makes fire.
    static func check(folder: String, groups: [String], profile: EngineProfile) -> Int32 {
        precondition(!groups.isEmpty, "--check needs at least one group")
        let catalogue = profile.catalogue
        guard let coverage = coverage(of: folder, profile: profile) else { return 2 }
        for path in coverage.failingScenarios {
            print("\(Terminal.red("FAIL")) \(path): the scenario fails, so the rules it fires "
                + "do not count (\(ProgramName.current) run \(path))")
        }
        let checked = catalogue.rules.filter {
            groups.contains($0.group) && !catalogue.enforcedAtInput.contains($0.id)
        }
        let atInput = catalogue.rules.filter {
            groups.contains($0.group) && catalogue.enforcedAtInput.contains($0.id)
        }
        if !atInput.isEmpty {
            print(ProgramName.named("enforced when a scenario is read, not by a run: "
                + atInput.map(\.id).joined(separator: ", ") + " (input errors of synclab check)"))
        }
        let missing = coverage.missing(among: checked)
        precondition(missing.count <= checked.count)
        for rule in missing {
            print("\(rule.id): no scenario in \(folder) makes it fire — \(rule.text)")
            for path in coverage.failingScenarios(firing: rule.id) {
                print("  (\(path) fires it but fails)")
            }
        }
        let scope = groups == catalogue.groups ? "the catalogue"
            : (groups.count == 1 ? "group " : "groups ") + groups.joined(separator: ", ")
        if missing.isEmpty {
            print("\(Terminal.green("OK")) every rule of \(scope) (\(checked.count)) fires in a "
                + "passing scenario of \(folder)")
            return 0
        }
        print("\(missing.count) of \(checked.count) rules of \(scope) fire in no passing "
            + "scenario of \(folder)")
        return 1
    }

    // MARK: The listing

    /// The catalogue, grouped, with the scenarios below `folder` that make each rule fire.
    static func list(
        folder: String, folderIsDefault: Bool, groups: [String], profile: EngineProfile
    ) -> Int32 {
        let catalogue = profile.catalogue
        var coverage: RuleCoverage?
        if folderIsDefault && ScenarioFiles.expand([folder]).files.isEmpty {
            Terminal.writeError("note: no scenarios in '\(folder)'; listing the rules only "
                + "(run from the repository, or use '--scenarios DIR')")
        } else {
            guard let found = Self.coverage(of: folder, profile: profile) else { return 2 }
            coverage = found
        }
        let shown = catalogue.rules.filter { groups.contains($0.group) }
        let title = profile.name == ScenarioHeader.defaultEngine
            ? "SyncLab rule catalogue" : "Rule catalogue of engine '\(profile.name)'"
        let heading = "\(title): \(shown.count) rules (\(profile.cataloguePage))"
            + (coverage.map { "; scenarios below \(folder): \($0.scenarioCount) run" } ?? "")
        wrapped(heading, first: "", indent: 2).forEach { print($0) }
        for group in groups {
            print("")
            print(Terminal.bold("\(group) — \(catalogue.title(ofGroup: group) ?? "")"))
            for rule in catalogue.rules(inGroup: group) {
                listing(of: rule, catalogue: catalogue, coverage: coverage, folder: folder)
                    .forEach { print($0) }
            }
        }
        // Decision tables the profile keeps as data (history's recovery policy).
        for table in profile.policyTables {
            print("")
            print(Terminal.bold(table.title))
            table.lines.forEach { print($0.isEmpty ? "" : "  " + $0) }
        }
        guard let coverage else { return 0 }
        print("")
        let missing = coverage.missing(among: shown)
        print("\(shown.count - missing.count) of \(shown.count) rules fire in a passing "
            + "scenario; \(coverage.failingScenarios.count) scenario"
            + (coverage.failingScenarios.count == 1 ? " fails" : "s fail"))
        return 0
    }

    /// The lines of one rule: ID and text, its choice, then the scenarios firing it (their
    /// paths relative to `folder`, which the listing's first line names).
    static func listing(
        of rule: Rule, catalogue: RuleCatalogue, coverage: RuleCoverage?, folder: String
    ) -> [String] {
        let idWidth = catalogue.rules.map(\.id.count).max() ?? 0
        let indent = 2 + idWidth + 2
        precondition(rule.id.count <= idWidth, "the ID column is narrower than \(rule.id)")
        let head = "  " + rule.id + pad(idWidth - rule.id.count + 2)
        var lines = wrapped(rule.text, first: head, indent: indent)
        for choice in rule.choice?.split(separator: "\n") ?? [] {
            lines += wrapped("Choice: " + choice, first: pad(indent), indent: indent + 2)
        }
        guard let coverage else { return lines }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        func relative(_ path: String) -> String {
            path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }
        let passing = coverage.passingScenarios(firing: rule.id).map(relative)
        let failing = coverage.failingScenarios(firing: rule.id).map(relative)
        if passing.isEmpty {
            lines.append(pad(indent) + "fired by: " + Terminal.red("no passing scenario"))
        } else {
            let text = "fired by: " + passing.joined(separator: ", ")
            lines += wrapped(text, first: pad(indent), indent: indent + 2)
        }
        if !failing.isEmpty {
            // Coloured after wrapping, so escape codes never count towards the width.
            let text = "fired but failing: " + failing.joined(separator: ", ")
            var failingLines = wrapped(text, first: pad(indent), indent: indent + 2)
            failingLines[0] = pad(indent) + Terminal.red("fired but failing:")
                + failingLines[0].dropFirst(indent + "fired but failing:".count)
            lines += failingLines
        }
        return lines
    }

    /// `WordWrap.lines` to `lineWidth`: the first line starts with `first`, the others with
    /// `indent` spaces.
    static func wrapped(_ text: String, first: String, indent: Int) -> [String] {
        WordWrap.lines(text, first: first, indent: indent, width: lineWidth)
    }

    static func pad(_ count: Int) -> String {
        String(repeating: " ", count: count)
    }

    static func usage(_ message: String) -> Int32 {
        Terminal.writeError("\(ProgramName.current): error: \(message)")
        Terminal.writeError("see '\(ProgramName.current) rules --help'")
        return 2
    }
}

/// Which scenarios make which rules fire, from runs of a folder of scenarios.
///
/// Rules are looked up by ID and never listed from the dictionaries, so their order cannot
/// reach the output; scenario lists are sorted on the way out.
struct RuleCoverage {
    /// The catalogue the fired rules are looked up in.
    let catalogue: RuleCatalogue
    private var passingByRule: [String: [String]] = [:]
    private var failingByRule: [String: [String]] = [:]
    private var failing: [String] = []
    private var unknown: [(rule: String, path: String)] = []
    private(set) var scenarioCount = 0

    init(catalogue: RuleCatalogue) {
        self.catalogue = catalogue
    }

    /// Records one run: the scenario's path, the rules it fired and whether it passed.
    mutating func add(path: String, firedRules: [String], passed: Bool) {
        precondition(!path.isEmpty, "a run without a path")
        precondition(Set(firedRules).count == firedRules.count, "a rule fired twice in \(path)")
        scenarioCount += 1
        if !passed { failing.append(path) }
        for rule in firedRules {
            if passed {
                passingByRule[rule, default: []].append(path)
            } else {
                failingByRule[rule, default: []].append(path)
            }
            if catalogue.rule(rule) == nil { unknown.append((rule, path)) }
        }
    }

    /// The passing scenarios that make the rule fire, sorted by path.
    func passingScenarios(firing rule: String) -> [String] {
        (passingByRule[rule] ?? []).sorted()
    }

    /// The scenarios that make the rule fire but fail, sorted by path.
    func failingScenarios(firing rule: String) -> [String] {
        (failingByRule[rule] ?? []).sorted()
    }

    /// Every scenario that failed, sorted by path.
    var failingScenarios: [String] {
        failing.sorted()
    }

    /// Rules a run fired that the catalogue lacks (a typo in the engine), sorted.
    var unknownRules: [(rule: String, path: String)] {
        unknown.sorted { ($0.path, $0.rule) < ($1.path, $1.rule) }
    }

    /// The rules, of those given, that no passing scenario makes fire, in the given order.
    func missing(among rules: [Rule]) -> [Rule] {
        rules.filter { passingByRule[$0.id] == nil }
    }
}
