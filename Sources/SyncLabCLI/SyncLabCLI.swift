import SyncLab

/// `synclab` as a library: the whole command line, on the engines of a lab the caller gives.
///
/// The `synclab` executable calls it with SyncLab's own engines; a package whose engine is its
/// own (an app on the `CloudKit` module, registered in a `ScenarioLab`) makes an executable of
/// one call, so `explore --swarm FILE --engine NAME` and every other command reach that engine.
public enum SyncLabCLI {
    static let help = """
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

    static let commands = [
        "run", "check", "probes", "engines", "report", "compare", "bench", "rules", "explore",
    ]

    /// Runs the command line `arguments` (without the program's name) on `lab`'s engines and
    /// returns the exit status: an executable's main. `explore` and `bench` may first execute
    /// the process again with a larger malloc cache (`MallocTuning`), so a test calls `run`.
    public static func main(_ arguments: [String], lab: ScenarioLab = ScenarioLab()) -> Int32 {
        if let command = arguments.first, command == "explore" || command == "bench",
           !arguments.contains("-h"), !arguments.contains("--help") {
            MallocTuning.reexecuteIfUntuned()
        }
        return run(arguments, lab: lab)
    }

    /// `main` in this process as it is: the same output and exit status.
    public static func run(_ arguments: [String], lab: ScenarioLab = ScenarioLab()) -> Int32 {
        EngineChoice.use(lab.engines)
        ProgramName.use(lab.command)
        var arguments = arguments
        // `synclab help CMD` is `synclab CMD --help`.
        if arguments.count == 2, arguments[0] == "help", commands.contains(arguments[1]) {
            arguments = [arguments[1], "--help"]
        }
        if arguments.isEmpty || arguments == ["-h"] || arguments == ["--help"]
            || arguments == ["help"] {
            ProgramName.printHelp(help)
            return arguments.isEmpty ? 2 : 0
        }
        if arguments == ["--version"] || arguments == ["version"] {
            print(ProgramName.version())
            return 0
        }
        if arguments.first == "help" {
            let topic = arguments.dropFirst().joined(separator: " ")
            return usageError("'help' takes one command name, not '\(topic)'"
                + suggestion(arguments.count == 2 ? arguments[1] : topic, among: commands),
                command: nil)
        }
        let command = arguments.removeFirst()
        return dispatch(command, arguments)
    }

    private static func dispatch(_ command: String, _ arguments: [String]) -> Int32 {
        switch command {
        case "run": return RunCommand.main(arguments)
        case "check": return CheckCommand.main(arguments)
        case "probes": return ProbesCommand.main(arguments)
        case "engines": return EnginesCommand.main(arguments)
        case "report": return ReportCommand.main(arguments)
        case "compare": return CompareCommand.main(arguments)
        case "bench": return BenchCommand.main(arguments)
        case "rules": return RulesCommand.main(arguments)
        case "explore": return ExploreCommand.main(arguments)
        default:
            return usageError(
                "unknown command '\(command)'"
                    + suggestion(command, among: commands + ["help", "--version"]),
                command: nil)
        }
    }
}
