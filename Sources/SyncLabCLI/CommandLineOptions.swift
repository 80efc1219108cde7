import Harness
import Kernel
import Scenario

/// A small hand-written argument reader: flags, `--name value` / `--name=value`, positionals.
struct CommandLineOptions {
    private var remaining: [String]
    private(set) var problem: String?

    init(_ arguments: [String]) {
        remaining = arguments
    }

    /// Removes a flag and tells whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes `--name value` or `--name=value` and returns the value.
    mutating func value(_ name: String) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else {
            problem = "'\(name)' needs a value"
            remaining.remove(at: index)
            return nil
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// What is left once options were taken; an unknown `--option` is a problem.
    var positionals: [String] {
        remaining
    }

    /// The first argument that looks like an option nobody asked for.
    var unknownOption: String? {
        remaining.first { $0.hasPrefix("-") && $0 != "-" }
    }
}


/// What every command that runs scenarios shares: `--max-time D` and `--max-events N`, the
/// run's budgets, overriding the file's `budget` statements (docs/FORMAT.md §3), and
/// `--engine NAME`, the registered engine that runs them, overriding the file's `engine`.
struct BudgetOptions {
    var maxTime: SimTime?
    var maxEvents: Int?
    var engine: String?

    static let names = ["--max-time", "--max-events", "--engine"]

    static let help = """
      --max-time D       the time budget of each run (default: the file's 'budget
                         time', else 30 days; a duration such as 90d)
      --max-events N     the event budget of each run (default: the file's 'budget
                         events', else 2000000)
      --engine NAME      run on engine NAME, not the file's ('synclab engines')
    """

    /// Reads both options; the message of a bad value otherwise.
    static func read(_ options: inout CommandLineOptions) -> Result<BudgetOptions, UsageError> {
        var budget = BudgetOptions()
        if let text = options.value("--max-time") {
            switch TimeSpan.parse(text) {
            case .success(let span) where span > .zero:
                budget.maxTime = SimTime(microseconds: span.microseconds)
            case .success:
                return .failure(UsageError("'--max-time' must be more than 0s, not '\(text)'"))
            case .failure(let problem):
                return .failure(
                    UsageError("'--max-time' takes a duration, not '\(text)': \(problem)"))
            }
        }
        if let text = options.value("--max-events") {
            guard let count = Int(text), count >= 1 else {
                return .failure(UsageError(
                    "'--max-events' takes a whole number from 1 to \(Int.max), not '\(text)'"))
            }
            budget.maxEvents = count
        }
        switch EngineChoice.read(&options) {
        case .success(let engine): budget.engine = engine
        case .failure(let problem): return .failure(UsageError(problem.message))
        }
        return .success(budget)
    }

    /// The options as a command line repeats them (` --max-time 90d`), for rerun lines.
    var arguments: String {
        var text = ""
        if let maxTime {
            text += " --max-time \(TimeSpan(microseconds: maxTime.microseconds).unitText)"
        }
        if let maxEvents { text += " --max-events \(maxEvents)" }
        if let engine { text += " --engine \(engine)" }
        return text
    }

    var validationOptions: ValidationOptions {
        EngineChoice.registry.validationOptions(engine: engine, maxTime: maxTime)
    }

    func runOptions(seed: UInt64?, recordTrace: Bool = true) -> RunOptions {
        var options = RunOptions(
            engines: EngineChoice.registry, seed: seed, maxEvents: maxEvents, maxTime: maxTime,
            recordTrace: recordTrace)
        options.engine = engine
        return options
    }
}

/// A problem with the command line, as a message for a command's `usage`.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The value of `--seed N` (nil when the option is not given), read the same way by every
/// command that takes one.
func seedOption(_ text: String?) -> Result<UInt64?, UsageError> {
    guard let text else { return .success(nil) }
    guard let seed = UInt64(text) else {
        return .failure(UsageError("'--seed' takes a whole number from 0 to "
            + "18446744073709551615, not '\(text)'"))
    }
    return .success(seed)
}

/// Prints a command-line problem and where to read about the command; returns exit status 2.
func usageError(_ message: String, command: String?) -> Int32 {
    Terminal.writeError("\(ProgramName.current): error: \(message)")
    Terminal.writeError("see '\(ProgramName.current) \(command.map { $0 + " " } ?? "")--help'")
    return 2
}
