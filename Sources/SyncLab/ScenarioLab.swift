@_exported import Harness
@_exported import SyncContract
import Engines
import Foundation
import Scenario

/// SyncLab as a library: runs scenarios (a file, or text written inline in a test) on a
/// registered engine with a seed, and returns a typed result.
///
/// A value: registering an engine changes this lab only, so tests running in parallel
/// never share a registry.
public struct ScenarioLab: Sendable {
    /// The engines scenarios may name (`engine NAME`); SyncLab's own ones to begin with.
    public private(set) var engines: EngineRegistry
    /// The command line's name in the lines it prints to run something again (`rerun:
    /// notes-lab explore …`): a lab built into its own executable gives that executable's.
    public var command = "synclab"

    public init(engines: EngineRegistry = .bundled) {
        self.engines = engines
    }

    /// Adds an engine (its name must be new), so scenarios can run on it.
    public mutating func register(_ profile: EngineProfile) {
        engines.register(profile)
    }

    /// Checks and runs scenario text. `seed` and `engine` override the file's own lines;
    /// `file` names the text in diagnostics and expectation lines.
    public func run(
        _ source: String, file: String = "inline.scenario", seed: UInt64? = nil,
        engine: String? = nil
    ) -> LabResult {
        if let engine, engines.profile(named: engine) == nil {
            return LabResult(file: file, diagnostics: [
                "\(file): error: unknown engine '\(engine)'; registered: "
                    + engines.names.joined(separator: ", "),
            ], run: nil)
        }
        let checked = ScenarioChecker.check(
            source: source, file: file, options: engines.validationOptions(engine: engine))
        let errors = checked.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            return LabResult(
                file: file, diagnostics: checked.diagnostics.map(\.renderedWithNotes), run: nil)
        }
        var options = RunOptions(engines: engines, seed: seed)
        options.engine = engine
        let result = ScenarioRunner.run(checked.scenario, source: source, options: options)
        return LabResult(
            file: file, diagnostics: checked.diagnostics.map(\.renderedWithNotes), run: result)
    }

    /// Reads, checks and runs a scenario file.
    public func run(
        contentsOf path: String, seed: UInt64? = nil, engine: String? = nil
    ) -> LabResult {
        guard let data = FileManager.default.contents(atPath: path),
            let source = String(data: data, encoding: .utf8)
        else {
            return LabResult(
                file: path, diagnostics: ["\(path): error: cannot read the file"], run: nil)
        }
        return run(source, file: path, seed: seed, engine: engine)
    }
}
