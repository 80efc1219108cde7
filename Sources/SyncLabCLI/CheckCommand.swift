import Harness
import Scenario

/// `synclab check FILE…`: parse and validate only.
enum CheckCommand {
    static let help = """
    USAGE: synclab check FILE... [--engine NAME]

    Parses and validates each scenario (a folder means every .scenario file below
    it) without running it. Every error is printed as
      FILE:LINE:COLUMN: error: MESSAGE
    A schema whose store would not load on one of the file's engines (mirror's
    MIR-1) is a warning at each item the load error lists: the file stays valid.
    So is a save made at 0 s before anything lets time pass, on naive, which races
    the devices' launch (NAIVE-DR-1).
    Exit status: 0 when every file is valid, 2 otherwise.

    OPTIONS:
      --engine NAME      validate as 'run --engine NAME' would, without running:
                         triggers, probe points, rules and states against that
                         engine's own ('synclab engines')
      -h, --help         show this help
    """

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { ProgramName.printHelp(help); return 0 }
        let engine: String?
        switch EngineChoice.read(&options) {
        case .success(let name): engine = name
        case .failure(let error): return usage(error.message)
        }
        if let problem = options.problem { return usage(problem) }
        if let unknown = options.unknownOption {
            let known = ["--engine", "--help"]
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: known))")
        }
        let validation = EngineChoice.registry.validationOptions(engine: engine)
        guard !options.positionals.isEmpty else {
            return usage("'check' needs at least one scenario file")
        }
        let expanded = ScenarioFiles.expand(options.positionals)
        expanded.errors.forEach(Terminal.writeError)
        var valid = expanded.errors.isEmpty
        for path in expanded.files {
            if let loaded = ScenarioFiles.load(path, options: validation) {
                // A store that would not load on one of the file's engines is a warning: the
                // file stays valid and runs on every engine (a runtime state, MIR-2).
                for warning in StoreLoadWarnings.diagnostics(
                    for: loaded.scenario, file: path, registry: EngineChoice.registry) {
                    Terminal.writeError(warning.rendered)
                }
                LaunchRaceWarnings.diagnostics(for: loaded.scenario, file: path, engine: engine)
                    .forEach { Terminal.writeError($0.rendered) }
                print("\(Terminal.green("OK")) \(path)")
            } else {
                valid = false
            }
        }
        return valid ? 0 : 2
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "check") }
}
