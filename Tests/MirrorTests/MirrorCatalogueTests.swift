import Mirror
import SyncContract
import Testing
import TestSupport

/// The catalogue as data (`MirrorRules`, generated from docs/MIRROR.md) holds every ID;
/// every rule is expected to fire by a bundled scenario, and every weakness has a scenario
/// and a contrast.
@Suite struct MirrorCatalogueTests {
    @Test func theGroupsHoldEveryIDAndOnlyWeaknessesExplain() {
        let catalogue = MirrorRules.catalogue
        #expect(catalogue.groups == ["MIR", "MIRW", "MIR-DR"])
        #expect(catalogue.rules(inGroup: "MIR").map(\.id) == (1...30).map { "MIR-\($0)" })
        #expect(catalogue.rules(inGroup: "MIRW").map(\.id) == (1...10).map { "MIRW-\($0)" })
        #expect(catalogue.weaknesses.map(\.id) == catalogue.rules(inGroup: "MIRW").map(\.id) + ["MIR-DR-1", "MIR-DR-2", "MIR-DR-3"])
        #expect(catalogue.explainers(of: "duplicate-identity") == ["MIRW-8"])
    }

    @Test func theProfileCarriesTheContractProbesMirrorsOwnAndItsStatements() {
        let profile = MirrorProfile.profile
        #expect(profile.name == "mirror")
        #expect(profile.seed == "003")
        #expect(profile.cataloguePage == "docs/MIRROR.md")
        #expect(Array(profile.probePointNames.prefix(10)) == ProbePoint.contractOrder)
        #expect(profile.probePointNames.dropFirst(10) == [
            "mirror.setup.done", "mirror.import.start", "mirror.import.done", "mirror.export.start",
            "mirror.export.done", "mirror.reset", "mirror.store.load-failed",
        ])
        #expect(profile.statements == ["sync", "initialize-schema"])
        for refused in ["share", "accept", "unshare", "remove", "leave", "stop", "start", "reset-sync-data"] {
            #expect(!profile.statements.contains(refused))
        }
        #expect(profile.codec.zoneNames == ["com.apple.coredata.cloudkit.zone"])
        for state in ["syncing(setup)", "syncing(import)", "syncing(export)", "error(storeLoadFailed)",
                      "waiting(account)", "error(quotaExceeded)", "idle", "waiting(network)"] {
            #expect(profile.stateNames.contains(state), "\(state)")
        }
        #expect(profile.validateSchema != nil)
    }

    static let folder = "Scenarios/engines/mirror"

    @Test func everyScenarioRunsOnMirrorEveryRuleFiresSomewhereEveryWeaknessHasAContrast() throws {
        let files = TestSupport.scenarioFiles(under: Self.folder)
        #expect(!files.isEmpty)
        var texts: [String] = []
        for path in files {
            let text = try TestSupport.read(path)
            texts.append(text)
            #expect(text.contains("\nengine mirror\n"), "\(path) does not run on mirror")
            #expect(text.contains("\nabout \""), "\(path) has no about")
            #expect(text.contains("fired MIR"), "\(path) expects no MIR/MIRW ID")
        }
        for rule in MirrorRules.catalogue.rules {
            #expect(texts.contains { $0.contains("expect ") && $0.contains(": fired \(rule.id)\n") },
                    "no scenario expects \(rule.id) to fire")
        }
        let names = files.map { String($0.split(separator: "/").last ?? "") }
        for weakness in MirrorRules.catalogue.weaknesses {
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-") && !$0.contains("contrast") },
                    "\(weakness.id) has no scenario")
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-contrast-") },
                    "\(weakness.id) has no contrast scenario")
        }
    }
}
