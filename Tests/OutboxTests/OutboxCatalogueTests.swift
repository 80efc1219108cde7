import Foundation
import Outbox
import SyncContract
import Testing
import TestSupport

/// The catalogue as data (generated from docs/OUTBOX.md) holds every ID; every ID but the
/// two the page says cannot fire is made to fire by a passing bundled scenario; every
/// weakness has a scenario and a contrast; the profile refuses what the seed cannot do.
@Suite struct OutboxCatalogueTests {
    @Test func theGroupsHoldEveryID() {
        let catalogue = OutboxRules.catalogue
        #expect(catalogue.groups == ["OBX", "OBXW", "OBX-DR"])
        #expect(catalogue.rules(inGroup: "OBX").map(\.id) == (1...37).map { "OBX-\($0)" })
        #expect(catalogue.rules(inGroup: "OBXW").map(\.id) == (1...12).map { "OBXW-\($0)" })
        #expect(catalogue.rules(inGroup: "OBX-DR").map(\.id)
            == ["OBX-DR-1", "OBX-DR-2", "OBX-DR-3", "OBX-DR-4", "OBX-DR-5",
                "OBX-DR-6", "OBX-DR-7"])
        #expect(catalogue.explainers(of: "duplicate-identity") == ["OBXW-11"])
    }

    @Test func theProfileHasTheContractProbesItsOwnAndRefusesStopStartInitializeSchema() {
        let profile = OutboxProfile.profile
        #expect(profile.name == "outbox")
        #expect(profile.seed == "001")
        #expect(Array(profile.probePointNames.prefix(10)) == ProbePoint.contractOrder)
        #expect(profile.probePointNames.dropFirst(10) == [
            "outbox.committed", "outbox.reconciled", "outbox.batch", "outbox.state.saved",
            "outbox.conflict", "outbox.zone.recovered", "outbox.share.adopted", "outbox.share.revoked",
        ])
        for refused in ["stop", "start", "initialize-schema"] { #expect(!profile.statements.contains(refused)) }
        #expect(profile.statements.contains("reset-sync-data"))
        #expect(profile.stateNames.contains("waiting(account)"))
        #expect(profile.stateNames.contains("error(quotaExceeded)"))
        #expect(profile.codec.zoneNames == ["Main"])
        #expect(profile.codec.holdsRecords(inZoneNamed: "Collection-X"))
        #expect(profile.codec.sharedZoneName(ofRoot: "R") == "Collection-R")
    }

    static let folder = "Scenarios/engines/outbox"

    @Test func everyScenarioTellsItsStoryAndEveryWeaknessHasAContrast() throws {
        let files = TestSupport.scenarioFiles(under: Self.folder)
        #expect(files.count >= 30)
        for path in files {
            let text = try TestSupport.read(path)
            #expect(text.contains("\nengine outbox\n"), "\(path) does not run on outbox")
            #expect(text.contains("\nabout \""), "\(path) has no about")
        }
        let names = files.map { String($0.split(separator: "/").last ?? "") }
        for weakness in OutboxRules.catalogue.rules(inGroup: "OBXW") + OutboxRules.catalogue.rules(inGroup: "OBX-DR")
            where weakness.id != "OBXW-12" {
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-") && !$0.contains("contrast") },
                    "\(weakness.id) has no scenario")
            #expect(names.contains { $0.hasPrefix("\(weakness.id)-contrast-") },
                    "\(weakness.id) has no contrast scenario")
        }
    }

    /// Every ID fires in a bundled scenario (OBX-5 since the contract hands rollbacks to the
    /// engine, OBX-17 since the cloud can answer `unknownItem` to a missing delete).
    @Test func everyIDFiresInAPassingBundledScenario() throws {
        let run = try TestSupport.runSynclab(["rules", "--engine", "outbox", "--check", Self.folder])
        let missing = run.standardOutput.split(separator: "\n")
            .filter { $0.contains(": no scenario in") }
            .map { String($0.prefix { $0 != ":" }) }
        #expect(missing == [], "\(run.standardOutput)\(run.standardError)")
    }

    @Test func everyBundledScenarioPasses() throws {
        let run = try TestSupport.runSynclab(["run", Self.folder])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    }

    @Test func stopIsRefusedWhenTheScenarioIsChecked() throws {
        let folder = try TestSupport.temporaryFolder("outbox-stop")
        let path = folder.appendingPathComponent("stop.scenario").path
        try """
            scenario "stop on outbox"
            engine outbox
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            phone: stop
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try TestSupport.runSynclab(["check", path])
        #expect(run.status == 2)
        #expect(run.standardOutput.contains("engine 'outbox' does not support 'stop'")
                || run.standardError.contains("engine 'outbox' does not support 'stop'"),
                "\(run.standardOutput)\(run.standardError)")
    }
}
