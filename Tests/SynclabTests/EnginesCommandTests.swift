import Engines
import SDS
import SyncContract
import Testing
import TestSupport

@testable import synclab

/// `synclab engines` and `--engine`: the registry as the command line shows and checks it.
@Suite struct EnginesCommandTests {
    @Test func eachEngineIsOneLineWithItsSeedRulesAndProbePoints() {
        let line = EnginesCommand.lines([SDSProfile.profile])[0]
        let rules = SDSRules.catalogue.rules.count
        let weaknesses = SDSRules.catalogue.weaknesses.count
        #expect(line.hasPrefix("sds  seed 000  \(rules) rules (\(weaknesses) weaknesses)  "))
        #expect(line.contains("\(SDSProfile.probePoints.count) probe points"))
        #expect(line.hasSuffix("(docs/RULES.md)"))
    }

    @Test func theColumnsLineUpWhateverTheLengthOfTheNames() {
        let lines = EnginesCommand.lines(EngineRegistry.bundled.profiles)
        let seedColumns = Set(lines.map { $0.range(of: "seed ")!.lowerBound.utf16Offset(in: $0) })
        #expect(seedColumns.count == 1, "\(lines)")
        let probeStarts = Set(lines.map { line in
            let end = line.range(of: " probe points")!.lowerBound
            return line[..<end].lastIndex(of: " ").map { line.distance(from: line.startIndex, to: $0) } ?? 0
        })
        #expect(probeStarts.count == 1, "\(lines)")
    }

    @Test func theBinaryListsEveryRegisteredEngine() throws {
        let run = try TestSupport.runSynclab(["engines"])
        #expect(run.status == 0)
        let names = run.standardOutput.split(separator: "\n").map { $0.prefix { $0 != " " } }
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
