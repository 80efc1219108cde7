import Engines
import Harness
import Scenario
import SyncContract

/// `--engine NAME`: which registered engine runs the scenarios (overriding their `engine`
/// lines), or whose catalogue and probe points a listing shows.
enum EngineChoice {
    /// The engines of this command line: the lab's `SyncLabCLI.run` was given, SyncLab's own
    /// for `synclab`. Set before the command reads it; workers only read it.
    nonisolated(unsafe) private(set) static var registry = EngineRegistry.bundled

    /// Makes `engines` the registry every command reads.
    static func use(_ engines: EngineRegistry) {
        registry = engines
    }

    /// Reads `--engine NAME`: nil when absent, else the name, or the usage error for a name
    /// the registry does not know (with a suggestion).
    static func read(_ options: inout CommandLineOptions) -> Result<String?, EngineChoiceError> {
        guard let name = options.value("--engine") else { return .success(nil) }
        guard registry.profile(named: name) != nil else {
            return .failure(EngineChoiceError(message:
                "unknown engine '\(name)'\(suggestion(name, among: registry.names)); "
                    + "'\(ProgramName.current) engines' lists them"))
        }
        return .success(name)
    }

    /// The profile a listing shows: the chosen one, else the default engine's.
    static func profile(_ name: String?) -> EngineProfile {
        guard let profile = registry.profile(named: name ?? ScenarioHeader.defaultEngine) else {
            preconditionFailure(
                "the default engine '\(ScenarioHeader.defaultEngine)' is not registered")
        }
        return profile
    }

    /// Run options for these engines, with the override.
    static func runOptions(engine: String?, seed: UInt64?) -> RunOptions {
        var options = RunOptions(engines: registry, seed: seed)
        options.engine = engine
        return options
    }
}

/// An unknown `--engine` name, as a usage message.
struct EngineChoiceError: Error {
    var message: String
}
