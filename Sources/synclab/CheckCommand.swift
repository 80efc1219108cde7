import Harness
import Scenario

/// `synclab check FILE…`: parse and validate only.
enum CheckCommand {
    static let help = """
    USAGE: synclab check FILE...

    Parses and validates each scenario (a folder means every .scenario file below it)
    without running it. Every error is printed as FILE:LINE:COLUMN: error: MESSAGE.
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
            if ScenarioFiles.load(path) == nil {
                valid = false
            } else {
                print("\(Terminal.green("OK")) \(path)")
            }
        }
        return valid ? 0 : 2
    }

    static func usage(_ message: String) -> Int32 { usageError(message, command: "check") }
}
