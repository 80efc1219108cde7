import LocalStore
import Scenario
import SyncContract

/// Warnings for the engines whose store would not load the scenario's schema
/// (`EngineProfile.validateSchema`, e.g. `mirror`'s MIR-1). A failed load is a runtime state,
/// not an input error: the file stays valid and runs on every engine; `synclab check` shows
/// each item the error lists at its entity, attribute or relationship.
public enum StoreLoadWarnings {
    /// The engines the file names (its `engine` line and its `engines` list), in order, once.
    static func engines(of scenario: ScenarioFile) -> [String] {
        var names: [String] = []
        let named = [scenario.header.engine?.value].compactMap({ $0 })
            + scenario.header.engines.map(\.value)
        for name in named where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// One warning per item of each failure, placed where the schema declares it.
    public static func diagnostics(
        for scenario: ScenarioFile, file: String, registry: EngineRegistry
    ) -> [Diagnostic] {
        let schema = SchemaLowering.schema(of: scenario)
        var diagnostics: [Diagnostic] = []
        for name in engines(of: scenario) {
            guard let profile = registry.profile(named: name),
                  let validate = profile.validateSchema,
                  let failure = validate(schema) else { continue }
            for finding in failure.findings {
                diagnostics.append(Diagnostic(
                    severity: .warning, id: DiagnosticID("store-load-failed"), file: file,
                    location: location(of: finding, in: scenario),
                    message: message(engine: name, failure: failure, finding: finding)))
            }
        }
        return diagnostics
    }

    /// One item's warning text; `expect warning` matches the same text.
    static func message(
        engine: String, failure: StoreLoadFailure, finding: StoreLoadFailure.Finding
    ) -> String {
        let rules = failure.rules.joined(separator: ", ")
        return "on engine '\(engine)' the store fails to load (\(failure.domain) "
            + "\(failure.code), \(rules)): \(finding.section) \(finding.line)"
    }

    static func location(
        of finding: StoreLoadFailure.Finding, in scenario: ScenarioFile
    ) -> SourceLocation {
        guard let entity = scenario.entity(named: finding.entity) else {
            return scenario.entities.first?.location ?? SourceLocation(line: 1, column: 1)
        }
        guard let property = finding.property else { return entity.name.location }
        if finding.section.contains("unique constraints"),
           let identity = entity.identity.first(where: { $0.value == property }) {
            return identity.location
        }
        if let attribute = entity.attribute(named: property) { return attribute.name.location }
        if let relationship = entity.relationship(named: property) {
            return relationship.name.location
        }
        return entity.name.location
    }
}
