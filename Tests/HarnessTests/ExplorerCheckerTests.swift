@testable import Harness
import Checkers
import SyncContract
import Engines
import SDS
import Kernel
import LocalStore
import Testing

/// The lost-change checker's notion of "superseded", on hand-made saves.
@Suite struct ExplorerCheckerTests {
    static let title = AttributeDescription(
        name: "title", type: .string, defaultValue: .string(""))

    static func save(
        _ device: Int, _ value: String?, prior: SaveLedger.Prior = .none, order: Int
    ) -> SaveLedger.ValueSave {
        SaveLedger.ValueSave(
            device: device, account: "alice", model: ModelID(UInt64(device + 1)), record: "r",
            entity: "Note", key: "title", value: value.map { .string($0) }, prior: prior,
            time: SimTime(microseconds: Int64(order)), order: order)
    }

    static func candidates(_ saves: [SaveLedger.ValueSave]) -> [String?] {
        LostChangeChecker.candidateSaves(saves, attribute: title).map { save in
            if case .string(let text)? = save.value { return text }
            return nil
        }
    }

    @Test func aLaterSaveOnTheSameDeviceSupersedes() {
        let saves = [
            Self.save(0, "a", order: 1), Self.save(0, "b", prior: .known(.string("a")), order: 2),
        ]
        #expect(Self.candidates(saves) == ["b"])
    }

    @Test func aSaveOverADownloadedValueSupersedesIt() {
        let saves = [
            Self.save(0, "a", order: 1), Self.save(1, "b", prior: .known(.string("a")), order: 2),
        ]
        #expect(Self.candidates(saves) == ["b"])
    }

    @Test func concurrentSavesAreBothAcceptable() {
        let saves = [
            Self.save(0, "a", order: 1),
            Self.save(0, "b", prior: .known(.string("a")), order: 2),
            Self.save(1, "c", prior: .known(.string("a")), order: 3),
        ]
        #expect(Self.candidates(saves) == ["b", "c"])
    }

    @Test func holdingAValueManySavedProvesNothing() {
        // Both devices wrote "x": holding "x" does not show the second device saw the first.
        let saves = [
            Self.save(0, "x", order: 1),
            Self.save(1, "x", order: 2),
            Self.save(1, "y", prior: .known(.string("x")), order: 3),
        ]
        #expect(Self.candidates(saves) == ["x", "y"])
    }

    @Test func defaultsAndEmptyValuesAreNeverProvenSeen() {
        let saves = [
            Self.save(0, "", order: 1),
            Self.save(1, nil, order: 2),
            Self.save(0, "z", prior: .known(nil), order: 3),
        ]
        #expect(Self.candidates(saves) == [nil, "z"])
    }

    @Test func anUnknownPriorSupersedesNothing() {
        let saves = [Self.save(0, "a", order: 1), Self.save(1, "b", prior: .unknown, order: 2)]
        #expect(Self.candidates(saves) == ["a", "b"])
    }

    @Test func everyCheckNamesTheLimitationsThatExplainIt() {
        let catalogue = SDSProfile.profile.catalogue
        #expect(InvariantCheck.convergence.explainers(in: catalogue) == [
            "LIM-1", "LIM-3", "LIM-4", "LIM-6", "DR-2", "DR-3", "DR-4", "DR-5",
        ])
        #expect(InvariantCheck.lostChange.explainers(in: catalogue) == [
            "LIM-1", "LIM-3", "LIM-5", "LIM-6", "DR-1", "DR-2", "DR-3", "DR-4", "DR-5", "DR-6",
            "DR-7", "DR-8", "DR-9",
        ])
        #expect(InvariantCheck.duplicateIdentity.explainers(in: catalogue) == ["LIM-1", "LIM-2"])
        #expect(InvariantCheck.resurrection.explainers(in: catalogue) == [
            "LIM-1", "LIM-3", "LIM-4", "DR-2", "DR-6",
        ])
        #expect(InvariantCheck.liveness.explainers(in: catalogue).isEmpty)
        let finding = CheckerFinding(.convergence, "phone lacks n1")
        #expect(finding.classified(firedRules: ["LIM-4", "SYNC-4"], catalogue: catalogue).explainedBy == ["LIM-4"])
        #expect(!finding.classified(firedRules: ["LIM-2", "LIM-5"], catalogue: catalogue).isExplained)
    }

    @Test func theCataloguesExemptionsAreTheRulesThatDiscardOrRestoreByDesign() {
        let catalogue = SDSProfile.profile.catalogue
        #expect(catalogue.exemptions(from: "lost-change") == [
            "SYNC-3", "ADOPT-2", "ADOPT-4", "DEL-2", "DEL-3", "LIFE-2", "LIFE-5", "ACCT-3", "ERR-1",
            "ERR-2",
        ])
        #expect(catalogue.exemptions(from: "resurrection") == [
            "DEL-2", "DEL-3", "LIFE-2", "ACCT-3", "ERR-1", "ERR-2",
        ])
        #expect(catalogue.exemptions(from: "convergence") == ["ERR-2"])
    }

    /// A purge stops sds until `start()` (ERR-2): the explorer does not count the stopped
    /// devices as unconverged, while `expect converged` in a scenario still asks it of them.
    @Test func aPurgeStopsSDSByDesignAndTheExplorerSaysNothingOfIt() {
        let source = ExplorerFixtures.notes + "\nchaos fault user-delete-zone 10%\n"
        let explorer = ExplorerFixtures.explorer(source)
        let results = (UInt64(1)...8).map { explorer.run(seed: $0) }
        #expect(results.allSatisfy { $0.outcome != .newFinding }, "\(results.map(\.outcome))")
        let purged = results.map(\.seed).filter { seed in
            explorer.trace(seed: seed).events.contains { $0.rules.contains("ERR-2") }
        }
        #expect(!purged.isEmpty, "no seed purged the zone")
    }

    /// The false alarm of lim-3 seed 99 (issue 19): a phone that never synchronized made a
    /// note, which value matching (ADOPT-4) gave the record of the laptop's note with the
    /// same values; the laptop then deleted its note, and with it the phone's. The checker
    /// counted the phone's save as lost; ADOPT-4 now exempts it like DEL-3.
    @Test func aModelMatchedByValuesGoesWithTheRecordItWasGiven() throws {
        let explorer = try ExplorerFixtures.bundled("lim-3-move-and-delete.chaos")
        let run = explorer.drawnRun(seed: 99, options: explorer.options)
        #expect(run.firedRules.contains("ADOPT-4"))
        let result = SeedResult(seed: 99, run: run, violations: run.check())
        #expect(result.outcome != .newFinding, "\(result.violations.map(\.message))")
        #expect(!result.violations.contains { $0.check == .lostChange })
    }

    @Test func outcomesRankLivenessFirst() {
        let explained = InvariantViolation(check: .convergence, message: "", explainedBy: ["LIM-1"])
        let new = InvariantViolation(check: .lostChange, message: "")
        let liveness = InvariantViolation(check: .liveness, message: "")
        #expect(SeedResult.outcome(of: []) == .clean)
        #expect(SeedResult.outcome(of: [explained]) == .explained)
        #expect(SeedResult.outcome(of: [explained, new]) == .newFinding)
        #expect(SeedResult.outcome(of: [new, liveness]) == .budgetFailure)
    }
}
