import History
import SyncContract
import Testing
import TestSupport

/// The catalogue as data (`HistoryRules`, generated from docs/HISTORY.md) holds every ID;
/// every rule and weakness has its scenarios; the profile lists what the spec lists.
@Suite struct HistoryCatalogueTests {
    @Test func theGroupsHoldHIS1To42HISW1To13AndHISDR1() {
        let catalogue = HistoryRules.catalogue
        #expect(catalogue.groups == ["HIS", "HISW", "HIS-DR"])
        #expect(catalogue.rules(inGroup: "HIS").map(\.id) == (1...42).map { "HIS-\($0)" })
        #expect(catalogue.rules(inGroup: "HISW").map(\.id) == (1...13).map { "HISW-\($0)" })
        #expect(catalogue.weaknesses.map(\.id)
            == catalogue.rules(inGroup: "HISW").map(\.id) + ["HIS-DR-1"])
        #expect(catalogue.explainers(of: "lost-change").contains("HISW-1"))
        #expect(catalogue.explainers(of: "lost-change").contains("HISW-12"))
        #expect(catalogue.explainers(of: "duplicate-identity") == ["HISW-11"])
    }

    @Test func theProfileCarriesTheProbesStatesAndStatementsOfTheSpec() {
        let profile = HistoryProfile.profile
        #expect(profile.name == "history")
        #expect(profile.seed == "002")
        #expect(profile.cataloguePage == "docs/HISTORY.md")
        #expect(Array(profile.probePointNames.prefix(10)) == ProbePoint.contractOrder)
        #expect(profile.probePointNames.dropFirst(10) == [
            "history.token.staged", "history.token.committed", "history.pull.scope.start",
            "history.db-token.saved", "history.backoff.start", "history.backoff.end",
            "history.purge", "history.debounce.fired",
        ])
        for state in ["paused(rateLimited)", "paused(serviceUnavailable)", "error(quotaExceeded)",
                      "error(partialFailure)", "error(authenticationFailed)", "error(unknown)",
                      "error(zoneNotFound)", "error(userDeletedZone)", "disabled"] {
            #expect(profile.stateNames.contains(state))
        }
        #expect(!profile.statements.contains("reset-sync-data"))
        #expect(!profile.statements.contains("initialize-schema"))
        for statement in ["sync", "stop", "start", "share", "accept", "unshare", "remove",
            "leave"] {
            #expect(profile.statements.contains(statement))
        }
        #expect(profile.codec.zoneNames == ["CloudSyncKit"])
        #expect(profile.author == "CloudSyncKitSync")
        #expect(profile.policyTables.first?.lines == HistoryRecovery.printed)
    }

    static let folder = "Scenarios/engines/history"

    @Test func everyScenarioRunsOnHistoryTellsItsStoryAndEveryWeaknessHasAContrast() throws {
        let files = TestSupport.scenarioFiles(under: Self.folder)
        #expect(files.count >= 40)
        for path in files {
            let text = try TestSupport.read(path)
            #expect(text.contains("\nengine history\n"), "\(path) does not run on history")
            #expect(text.contains("\nabout \""), "\(path) has no about")
            #expect(text.contains("fired HIS"), "\(path) expects no HIS/HISW ID")
        }
        let names = files.map { String($0.split(separator: "/").last ?? "") }
        for weakness in HistoryRules.catalogue.weaknesses {
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-") && !$0.contains("contrast") },
                    "\(weakness.id) has no scenario")
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-contrast-") },
                    "\(weakness.id) has no contrast scenario")
        }
        // The recovery table row by row: each rule of a row names a scenario of its own.
        for rule in Set(HistoryRecovery.table.map(\.rule)).sorted() {
            #expect(names.contains { $0.hasPrefix("\(rule)-") }, "\(rule) has no scenario")
        }
    }

    @Test func everyRuleFiresInAPassingScenario() throws {
        let result = try TestSupport.runSynclab(["rules", "--engine", "history", "--check",
            Self.folder])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test func rulesPrintsTheRecoveryPolicyTable() throws {
        let result = try TestSupport.runSynclab(["rules", "--engine", "history", "--scenarios",
            "Scenarios/engines/history/HIS-42-stop-and-start.scenario"])
        #expect(result.standardOutput.contains("Recovery policy"))
        #expect(result.standardOutput.contains("userDeletedZone → purgeAndRebuild — HIS-27"))
        #expect(result.standardOutput.contains("serviceUnavailable → backoff (1m, whatever the "
            + "retry-after) — HIS-30"))
    }
}
