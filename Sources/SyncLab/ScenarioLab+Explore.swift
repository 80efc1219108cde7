import Foundation
import Harness
import Scenario

extension ScenarioLab {
    /// What `explorer(_:)` gives: the explorer of a chaos text on this lab's engines, or the
    /// diagnostics (`FILE:LINE:COLUMN: error: message`) when the text does not check.
    public struct Exploration: Sendable {
        public let explorer: Explorer?
        public let diagnostics: [String]
    }

    /// An explorer (docs/EXPLORER.md) for chaos text with a `chaos workload` line, on this lab's
    /// registry: user engines included. `engine` overrides the file's `engine` line;
    /// `shrinkExplained` shrinks findings a weakness explains too (`--shrink-explained`).
    public func explorer(
        _ source: String, file: String = "inline.chaos", engine: String? = nil,
        shrinkRuns: Int = 400, shrinkExplained: Bool = false
    ) -> Exploration {
        if let engine, engines.profile(named: engine) == nil {
            return Exploration(explorer: nil, diagnostics: [
                "\(file): error: unknown engine '\(engine)'; registered: "
                    + engines.names.joined(separator: ", "),
            ])
        }
        let checked = ScenarioChecker.check(
            source: source, file: file, options: engines.validationOptions(engine: engine))
        let rendered = checked.diagnostics.map(\.renderedWithNotes)
        guard !checked.diagnostics.contains(where: { $0.severity == .error }) else {
            return Exploration(explorer: nil, diagnostics: rendered)
        }
        guard checked.scenario.chaos.workload != nil else {
            return Exploration(explorer: nil, diagnostics: [
                "\(file): error: exploring needs a 'chaos workload' line (docs/EXPLORER.md)",
            ])
        }
        let options = ExploreOptions(
            engines: engines, engine: engine, shrinkRuns: shrinkRuns,
            shrinkExplained: shrinkExplained)
        return Exploration(
            explorer: Explorer(scenario: checked.scenario, source: source, options: options),
            diagnostics: rendered)
    }

    /// Reads a chaos file and makes its explorer.
    /// `explore --swarm` on the lab's engines: each seed draws its own world within what the
    /// engine accepts; with `base` (a scenario's text), the worlds keep its schema, accounts
    /// and devices and draw the workload, mix and faults (docs/EXPLORER.md).
    public func swarm(
        _ base: String? = nil, engine: String? = nil, shrinkRuns: Int = 400,
        shrinkExplained: Bool = false
    ) -> SwarmExplorer {
        let options = ExploreOptions(
            engines: engines, engine: engine, shrinkRuns: shrinkRuns,
            shrinkExplained: shrinkExplained)
        return SwarmExplorer(options: options, base: base)
    }

    public func explorer(
        contentsOf path: String, engine: String? = nil, shrinkRuns: Int = 400,
        shrinkExplained: Bool = false
    ) -> Exploration {
        guard let data = FileManager.default.contents(atPath: path),
              let source = String(data: data, encoding: .utf8)
        else {
            return Exploration(explorer: nil, diagnostics: ["\(path): error: cannot read the file"])
        }
        return explorer(source, file: path, engine: engine, shrinkRuns: shrinkRuns,
            shrinkExplained: shrinkExplained)
    }
}
