import Engines
import Foundation
import Harness
import SDS
import Scenario
import SyncContract
import Testing
import TestSupport

/// Issue 11 item 8: every path that validates knows the rule catalogue and the engine's
/// states, so `fired SYNC-99` and `state Idle` are input errors, and the state list is the
/// one the engine and the harness actually show.
@Suite struct ValidationCatalogueTests {
    @Test func theHarnessOptionsCarryTheCatalogueAndTheStates() {
        let options = EngineRegistry.bundled.validationOptions()
        let facts = options.facts(forEngine: SDSEngine.name)
        #expect(facts?.ruleIDs == SDSRules.catalogue.rules.map(\.id))
        #expect(facts?.stateNames == SDSProfile.stateNames)
        #expect(options.engines == EngineRegistry.bundled.names)
        #expect(Set(SDSProfile.stateNames) == [
            "not-running", "signed-out", "stopped", "syncing", "idle", "waiting(retryAfter)",
            "waiting(network)", "error(userDeletedZone)", "paused(quotaExceeded)",
            "error(incompleteUpload)",
        ])
    }

    /// Each `EngineState(…)` the engine's `state` can return is in the list.
    @Test func everyStateTheEngineBuildsIsListed() throws {
        let source = try TestSupport.read("Sources/SDS/SDSEngine.swift")
        guard let start = source.range(of: "public var state: EngineState {") else {
            Issue.record("SDSEngine.state not found")
            return
        }
        guard let end = source[start.upperBound...].range(of: "\n    }\n") else {
            Issue.record("the end of SDSEngine.state not found")
            return
        }
        let body = source[start.upperBound..<end.lowerBound]
        var built: [String] = []
        for part in body.components(separatedBy: "EngineState(\"").dropFirst() {
            let fields = part.prefix { $0 != ")" }.split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            }
            built.append(fields.count == 2 ? "\(fields[0])(\(fields[1]))" : fields[0])
        }
        for part in body.components(separatedBy: "return .").dropFirst() {
            let name = String(part.prefix { $0.isLetter })
            let constants: [String: EngineState] = [
                "idle": .idle, "syncing": .syncing, "stopped": .stopped,
                "signedOut": .signedOut, "notRunning": .notRunning,
            ]
            guard let state = constants[name] else {
                Issue.record("unknown constant .\(name)")
                continue
            }
            built.append(state.description)
        }
        #expect(built.count >= 8)
        for state in built {
            #expect(SDSProfile.stateNames.contains(state), "\(state) is not listed")
        }
    }

    @Test func unknownRuleAndStateFailTheCheck() {
        let source = """
            scenario "x"
            account alice
            device phone on alice
            expect phone: not fired SYNC-99
            expect phone: state Idle

            """
        let result = ScenarioChecker.check(
            source: source, file: "x.scenario", options: EngineRegistry.bundled.validationOptions())
        let sync = SDSRules.catalogue.rules.map(\.id).filter { $0.hasPrefix("SYNC-") }
        #expect(result.diagnostics.map(\.rendered) == [
            "x.scenario:4:25: error: unknown rule 'SYNC-99'; the catalogue's rules of its group "
                + "are \(sync.first ?? "") to \(sync.last ?? "") (docs/RULES.md, 'synclab rules')",
            "x.scenario:5:21: error: unknown state 'Idle'; did you mean 'idle'?",
        ])
    }
}
