import Harness
import Scenario

/// `synclab check FILE…`: parse and validate only.
enum CheckCommand {
    static let help = """
    USAGE: synclab check FILE...

    Parses and validates each scenario (a folder means every .scenario file below it)
    without running it. Every error is printed as FILE:LINE:COLUMN: error: MESSAGE.
    A schema whose store would not load on one of the file's engines (mirror's MIR-1) is
    a warning at each item the load error lists: the file stays valid. So is a save made
    at 0 s before anything lets time pass, which races the devices' launch (NAIVE-DR-1).
    Exit status: 0 when every file is valid, 2 otherwise.

    OPTIONS:
      -h, --help         show this help
    """

    static func main(_ arguments: [String]) -> Int32 {
        var options = CommandLineOptions(arguments)
        if options.flag("-h") || options.flag("--help") { print(help); return 0 }
        if let unknown = options.unknownOption {
            return usage("unknown option '\(unknown)'\(suggestion(unknown, among: ["--help"]))")
        }
        guard !options.positionals.isEmpty else { return usage("'check' needs at least one scenario file") }
        let expanded = ScenarioFiles.expand(options.positionals)
        expanded.errors.forEach(Terminal.writeError)
        var valid = expanded.errors.isEmpty
        for path in expanded.files {
            if let loaded = ScenarioFiles.load(path) {
                // A store that would not load on one of the file's engines is a warning: the
                // file stays valid and runs on every engine (a runtime state, MIR-2).
                for warning in StoreLoadWarnings.diagnostics(
                    for: loaded.scenario, file: path, registry: EngineChoice.registry) {
                    Terminal.writeError(warning.rendered)
                }
                LaunchRaceWarnings.diagnostics(for: loaded.scenario, file: path)
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
