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
  compare FILE...  run each story on several engines, side by side
  bench            measure the kernel and scenario runs (use a release build)
  rules            list the rule catalogue and the scenarios that fire each rule
  explore FILE     run a chaos file's seeds, check and shrink what they find
  help [COMMAND]   show this help, or a command's ('synclab COMMAND --help')

Run 'synclab help COMMAND' or 'synclab COMMAND --help' for a command's options,
'synclab --version' for the version.
"""

let commands = [
    "run", "check", "probes", "engines", "report", "compare", "bench", "rules", "explore",
]
var arguments = Array(CommandLine.arguments.dropFirst())
// The commands that run many seeds start again with a larger malloc cache (`MallocTuning`).
if let command = arguments.first, command == "explore" || command == "bench",
   !arguments.contains("-h"), !arguments.contains("--help") {
    MallocTuning.reexecuteIfUntuned()
}
// `synclab help CMD` is `synclab CMD --help`.
if arguments.count == 2, arguments[0] == "help", commands.contains(arguments[1]) {
    arguments = [arguments[1], "--help"]
}
let status: Int32
if arguments.isEmpty || arguments == ["-h"] || arguments == ["--help"] || arguments == ["help"] {
    print(help)
    status = arguments.isEmpty ? 2 : 0
} else if arguments == ["--version"] || arguments == ["version"] {
    print("synclab \(SyncLabVersion.current)")
    status = 0
} else if arguments.first == "help" {
    let topic = arguments.dropFirst().joined(separator: " ")
    status = usageError("'help' takes one command name, not '\(topic)'"
        + suggestion(arguments.count == 2 ? arguments[1] : topic, among: commands), command: nil)
} else {
    let command = arguments.removeFirst()
    switch command {
    case "run": status = RunCommand.main(arguments)
    case "check": status = CheckCommand.main(arguments)
    case "probes": status = ProbesCommand.main(arguments)
    case "engines": status = EnginesCommand.main(arguments)
    case "report": status = ReportCommand.main(arguments)
    case "compare": status = CompareCommand.main(arguments)
    case "bench": status = BenchCommand.main(arguments)
    case "rules": status = RulesCommand.main(arguments)
    case "explore": status = ExploreCommand.main(arguments)
    default:
        status = usageError(
            "unknown command '\(command)'"
                + suggestion(command, among: commands + ["help", "--version"]),
            command: nil)
    }
}
exit(status)
