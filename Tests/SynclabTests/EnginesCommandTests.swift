import Engines
import SDS
import SyncContract
import Testing
import TestSupport

@testable import SyncLabCLI

/// `synclab engines` and `--engine`: the registry as the command line shows and checks it.
@Suite struct EnginesCommandTests {
    @Test func eachEngineExplainsItsRulesWeaknessesAndProbePoints() {
        let lines = EnginesCommand.lines([SDSProfile.profile], width: 80)
        let text = lines.joined(separator: "\n")
        #expect(lines[0] == "sds — \(SDSProfile.profile.system)")
        #expect(lines[1] == "  source:       document 000, catalogue docs/RULES.md")
        #expect(text.contains("  rules:        \(SDSRules.catalogue.rules.count) in "))
        // Every weakness and every probe point by name, not a bare count.
        for rule in SDSRules.catalogue.weaknesses {
            #expect(text.contains(rule.id), "\(rule.id)")
        }
        for point in SDSProfile.probePoints {
            #expect(text.contains(point.name), "\(point.name)")
        }
        #expect(text.contains("synclab probes --engine sds"))
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    }

    @Test func theBinaryListsEveryRegisteredEngine() throws {
        let run = try TestSupport.runSynclab(["engines"])
        #expect(run.status == 0)
        let heads = run.standardOutput.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        let names = heads.map { $0.prefix { $0 != " " } }
        #expect(names.map(String.init) == EngineRegistry.bundled.names)
    }

    @Test func anUnknownEngineIsAUsageErrorWithASuggestion() throws {
        for command in [["run", "Scenarios/tour/01-first-sync.scenario"], ["probes"], ["rules"]] {
            let run = try TestSupport.runSynclab(command + ["--engine", "sdz"])
            #expect(run.status == 2)
            #expect(run.standardError.contains("unknown engine 'sdz'; did you mean 'sds'?"))
        }
    }

    @Test func probesAndRulesFollowTheChosenEngine() throws {
        let probes = try TestSupport.runSynclab(["probes", "--engine", "sds"])
        #expect(probes.standardOutput.contains("download.page.resolved"))
        let rules = try TestSupport.runSynclab(["rules", "--engine", "sds", "--scenarios", "Scenarios/tour"])
        #expect(rules.status == 0)
        #expect(rules.standardOutput.contains("SyncLab rule catalogue: \(SDSRules.catalogue.rules.count) rules (docs/RULES.md)"))
    }
}
