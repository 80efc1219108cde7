#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `synclab`: run, check and measure SyncLab scenarios.
let help = """
SyncLab: a deterministic multi-device simulator for CloudKit sync engines.

USAGE: synclab COMMAND [OPTIONS]

COMMANDS:
  run FILE...      run scenarios and check their expectations
  check FILE...    parse and validate scenarios without running them
  probes           list the probe points triggers can name
  engines          list the engines scenarios can run on
  report FILE...   write Markdown or HTML reports of scenarios (--out DIR)
  bench            measure the kernel and scenario runs (use a release build)
  rules            list the rule catalogue and the scenarios that make each rule fire
  explore FILE     run the seeds of a chaos file, check and shrink what they find

Run 'synclab COMMAND --help' for a command's options.
"""

let commands = ["run", "check", "probes", "engines", "report", "bench", "rules", "explore"]
var arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
if arguments.isEmpty || arguments == ["-h"] || arguments == ["--help"] || arguments == ["help"] {
    print(help)
    status = arguments.isEmpty ? 2 : 0
} else {
    let command = arguments.removeFirst()
    switch command {
    case "run": status = RunCommand.main(arguments)
    case "check": status = CheckCommand.main(arguments)
    case "probes": status = ProbesCommand.main(arguments)
    case "engines": status = EnginesCommand.main(arguments)
    case "report": status = ReportCommand.main(arguments)
    case "bench": status = BenchCommand.main(arguments)
    case "rules": status = RulesCommand.main(arguments)
    case "explore": status = ExploreCommand.main(arguments)
    default:
        status = RunCommand.usage("unknown command '\(command)'\(suggestion(command, among: commands))")
    }
}
exit(status)
