import Foundation
import SDS
import SyncContract
import TestSupport
import Testing

@testable import SyncLabCLI

/// `synclab rules` end to end: the real binary on small scenario folders, then the pieces
/// (coverage, group selection, wrapping) in process.
@Suite struct RulesCommandTests {
    /// Makes SYNC-1 and SYNC-2 fire and checks that it did; no deletion, no identity.
    static let oneInsert = """
        scenario "One insert reaches iCloud"
        seed 1

        entity Note {
          title: String = ""
        }

        account alice
        device phone on alice

        phone: insert Note n1 title="Hello"
        settle
        expect phone: fired SYNC-1
        expect phone: fired SYNC-2
        expect cloud alice: n1 title="Hello"

        """

    /// Makes the same rules fire, then fails an expectation.
    static let failingInsert = """
        scenario "One insert, wrongly counted"
        seed 1

        entity Note {
          title: String = ""
        }

        account alice
        device phone on alice

        phone: insert Note n1 title="Hello"
        settle
        expect cloud alice: count Note = 2

        """

    /// A folder holding the given scenario files.
    static func folder(_ name: String, _ files: [(name: String, text: String)]) throws -> String {
        let url = try TestSupport.temporaryFolder("rules-\(name)")
        for file in files {
            try file.text.write(
                to: url.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        }
        return url.path
    }

    /// The lines that name a missing rule: `ID: no scenario in …`.
    static func missingRuleLines(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { line in
            guard let colon = line.firstIndex(of: ":") else { return false }
            let id = line[..<colon]
            return id.contains("-") && id.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "-" }
        }
    }

    // MARK: The binary

    @Test func helpNamesTheOptions() throws {
        let run = try TestSupport.runSynclab(["rules", "--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("synclab rules [--engine NAME] --check DIR [--group G]..."))
        #expect(run.standardOutput.contains("--scenarios DIR"))
    }

    /// Needs the real scenario parser: with the stub, SYNC-1 and SYNC-2 never fire.
    @Test func checkNamesEveryRuleThatNoScenarioMakesFire() throws {
        let folder = try Self.folder("check", [("one-insert.scenario", Self.oneInsert)])
        let run = try TestSupport.runSynclab(["rules", "--check", folder])
        #expect(run.status == 1, "\(run.standardError)")
        let output = run.standardOutput
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains("LIM-6: no scenario in \(folder) makes it fire — Two devices "
            + "that change values in the same overflow asset within the same moment: the last "
            + "upload of the asset wins (BIG-3's exception)."))
        #expect(lines.contains("SYNC-3: no scenario in \(folder) makes it fire — An edit of "
            + "a model whose deletion arrives in the download is discarded with the deletion; it "
            + "is not uploaded as a partial record."))
        #expect(!output.contains("SYNC-1:") && !output.contains("SYNC-2:"), "\(output)")
        #expect(output.contains("rules of the catalogue fire in no passing scenario of \(folder)"))
        #expect(!output.contains("\u{1B}"), "piped output is plain")
        let missing = Self.missingRuleLines(output)
        #expect(missing.count > 50 && missing.count < 80, "\(missing.count) rules missing")
        #expect(missing.first?.hasPrefix("SYNC-3:") == true, "catalogue order")
        #expect(missing.last?.hasPrefix("DR-9:") == true, "catalogue order")
    }

    /// Needs the real scenario parser (SYNC-1 must not be named).
    @Test func aGroupLimitsTheCheck() throws {
        let folder = try Self.folder("group", [("one-insert.scenario", Self.oneInsert)])
        let run = try TestSupport.runSynclab(["rules", "--check", folder, "--group", "SYNC"])
        #expect(run.status == 1, "\(run.standardError)")
        let missing = Self.missingRuleLines(run.standardOutput)
        #expect(missing.allSatisfy { $0.hasPrefix("SYNC-") }, "\(missing)")
        #expect(missing.map { String($0.prefix { $0 != ":" }) }
            == ["SYNC-3", "SYNC-4", "SYNC-5", "SYNC-6", "SYNC-7"])
        #expect(run.standardOutput.contains("5 of 7 rules of group SYNC fire in no passing"))
    }

    @Test func groupsRepeatAndKeepCatalogueOrder() throws {
        let folder = try Self.folder("groups", [("one-insert.scenario", Self.oneInsert)])
        let run = try TestSupport.runSynclab(
            ["rules", "--check", folder, "--group", "DL", "--group", "sync"])
        #expect(run.status == 1, "\(run.standardError)")
        let groups = Self.missingRuleLines(run.standardOutput).map { $0.prefix { $0 != "-" } }
        #expect(Set(groups) == ["SYNC", "DL"], "\(groups)")
        #expect(groups.first == "SYNC" && groups.last == "DL", "SYNC comes before DL")
        #expect(run.standardOutput.contains("rules of groups SYNC, DL fire in no passing"))
    }

    /// Needs the real scenario parser: with the stub there are no expectations to fail.
    @Test func aFailingScenarioDoesNotCount() throws {
        let folder = try Self.folder("failing", [("failing.scenario", Self.failingInsert)])
        let path = folder + "/failing.scenario"
        let run = try TestSupport.runSynclab(["rules", "--check", folder, "--group", "SYNC"])
        #expect(run.status == 1, "\(run.standardError)")
        let output = run.standardOutput
        #expect(output.contains("FAIL \(path): the scenario fails, so the rules it fires do not"))
        #expect(output.contains("SYNC-1: no scenario in \(folder) makes it fire — Saves of"))
        #expect(output.contains("\n  (\(path) fires it but fails)\n"), "\(output)")
        #expect(output.contains("7 of 7 rules of group SYNC fire in no passing scenario"))
    }

    /// Needs the real scenario parser for the `fired by` lines.
    @Test func theListingShowsWhichScenariosMakeEachRuleFire() throws {
        let folder = try Self.folder("listing", [
            ("failing.scenario", Self.failingInsert), ("one-insert.scenario", Self.oneInsert),
        ])
        let run = try TestSupport.runSynclab(["rules", "--scenarios", folder, "--group", "SYNC"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        // The heading wraps to 80 columns like the rest (the scratch folder's path is long).
        let heading = lines.prefix { !$0.hasPrefix("SYNC ") }.joined(separator: "\n")
        #expect(heading.hasPrefix("SyncLab rule catalogue: 7 rules (docs/RULES.md); scenarios"))
        #expect(heading.hasSuffix(": 2 run"))
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains("SYNC — how a synchronization runs"))
        #expect(lines.contains("  SYNC-2    Every synchronization downloads first, then uploads."))
        #expect(lines.contains { $0.hasPrefix("            Choice: the debounce is 500 ms") })
        #expect(lines.filter { $0 == "            fired by: one-insert.scenario" }.count == 2)
        #expect(lines.filter { $0 == "            fired but failing: failing.scenario" }.count
            == 2)
        let sync3 = try #require(lines.firstIndex { $0.hasPrefix("  SYNC-3 ") })
        #expect(lines[sync3 + 2] == "            fired by: no passing scenario")
        #expect(lines.last == "2 of 7 rules fire in a passing scenario; 1 scenario fails")
        // The first line names the folder, which can be any length.
        #expect(lines.dropFirst().allSatisfy { $0.count <= 100 }, "wrapped to 100 columns")
    }

    @Test func theBundledListingHasEveryRuleAndIsStable() throws {
        let first = try TestSupport.runSynclab(["rules"])
        let second = try TestSupport.runSynclab(["rules"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == second.standardOutput)
        let output = first.standardOutput
        #expect(output.hasPrefix("SyncLab rule catalogue: 77 rules (docs/RULES.md); "
            + "scenarios below Scenarios: "))
        for group in SDSRules.catalogue.groups {
            #expect(output.contains("\n\(group) — "), "\(group)")
        }
        for rule in SDSRules.catalogue.rules {
            #expect(output.contains("\n  \(rule.id) "), "\(rule.id) is not listed")
        }
    }

    /// Needs the real scenario parser for the `fired by` line.
    @Test func theBundledRuleScenarioMakesItsRuleFire() throws {
        let run = try TestSupport.runSynclab(["rules", "--group", "SYNC"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("rules/SYNC-1-saves-become-pending-changes.scenario"))
    }

    static let inputErrors: [(arguments: [String], message: String)] = [
        (["--check", "/nonexistent/synclab-rules"],
         "/nonexistent/synclab-rules: error: no such file or folder"),
        (["--scenarios", "/nonexistent/synclab-rules"],
         "/nonexistent/synclab-rules: error: no such file or folder"),
        (["--group", "SYNK"], "synclab: error: unknown group 'SYNK'; did you mean 'SYNC'?"),
        (["--check"], "synclab: error: '--check' needs a value"),
        (["--check", "Scenarios", "--scenarios", "Scenarios"], "leave out '--scenarios'"),
        (["--chek", "Scenarios"], "unknown option '--chek'; did you mean '--check'?"),
        (["Scenarios"], "'rules' takes no file names, not 'Scenarios'; use '--check Scenarios'"),
    ]

    @Test(arguments: inputErrors)
    func inputErrorsExitTwoAndCheckNothing(_ arguments: [String], _ message: String) throws {
        let run = try TestSupport.runSynclab(["rules"] + arguments)
        #expect(run.status == 2)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty, "nothing is listed or checked")
    }

    @Test func aFolderWithoutScenariosIsAnInputError() throws {
        let folder = try Self.folder("empty", [("notes.txt", "not a scenario")])
        let run = try TestSupport.runSynclab(["rules", "--check", folder])
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(folder): error: no .scenario files in this folder"))
    }

    /// Needs the real scenario parser: the stub reports no diagnostics.
    @Test func invalidScenariosExitTwoWithTheirDiagnostics() throws {
        let broken = Self.oneInsert.replacingOccurrences(
            of: "device phone on alice", with: "device phone on bob")
        let folder = try Self.folder("invalid", [
            ("a-broken.scenario", broken), ("b-fine.scenario", Self.oneInsert),
        ])
        let run = try TestSupport.runSynclab(["rules", "--check", folder])
        #expect(run.status == 2)
        let diagnostics = run.standardError
        #expect(diagnostics.contains("\(folder)/a-broken.scenario:9:"), "\(diagnostics)")
        #expect(run.standardError.contains(": error: "))
        #expect(run.standardOutput.isEmpty, "no rule is named when the input is wrong")
    }

    // MARK: The pieces, in process

    @Test func coverageCountsOnlyPassingScenarios() {
        var coverage = RuleCoverage(catalogue: SDSRules.catalogue)
        coverage.add(path: "b.scenario", firedRules: ["SYNC-1", "SYNC-2"], passed: true)
        coverage.add(path: "a.scenario", firedRules: ["SYNC-1"], passed: true)
        coverage.add(path: "c.scenario", firedRules: ["SYNC-3", "SYNC-99"], passed: false)
        #expect(coverage.scenarioCount == 3)
        #expect(coverage.passingScenarios(firing: "SYNC-1") == ["a.scenario", "b.scenario"])
        #expect(coverage.passingScenarios(firing: "SYNC-3").isEmpty)
        #expect(coverage.failingScenarios(firing: "SYNC-3") == ["c.scenario"])
        #expect(coverage.failingScenarios == ["c.scenario"])
        #expect(coverage.unknownRules.map(\.rule) == ["SYNC-99"])
        let sync = ["SYNC-1", "SYNC-2", "SYNC-3"].compactMap(SDSRules.catalogue.rule)
        #expect(coverage.missing(among: sync).map(\.id) == ["SYNC-3"])
        #expect(coverage.missing(among: Array(sync.prefix(2))).isEmpty, "all fire: exit 0")
    }

    @Test func groupSelection() throws {
        #expect(try RulesCommand.selectedGroups([], catalogue: SDSRules.catalogue).get().count == 15)
        #expect(try RulesCommand.selectedGroups(["lim", "SYNC", "SYNC"], catalogue: SDSRules.catalogue).get() == ["SYNC", "LIM"])
        #expect(throws: RulesCommand.UsageProblem.self) {
            try RulesCommand.selectedGroups(["SYNC", "DLL"], catalogue: SDSRules.catalogue).get()
        }
    }

    @Test func wrappingKeepsWordsAndWidth() {
        let text = String(repeating: "word ", count: 60) + "end."
        let lines = RulesCommand.wrapped(text, first: "  X-1  ", indent: 7)
        #expect(lines.allSatisfy { $0.count <= RulesCommand.lineWidth })
        #expect(lines.first?.hasPrefix("  X-1  word") == true)
        let indented = lines.dropFirst()
        #expect(indented.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 7) + "w") })
        let words = lines.joined(separator: " ").split(separator: " ").filter { $0 != "X-1" }
        #expect(words.count == 61)
        // Tests run the code piped: 80 columns.
        #expect(RulesCommand.lineWidth == 80)
        let long = String(repeating: "x", count: 120)
        #expect(RulesCommand.wrapped("a " + long, first: "", indent: 2)
            == ["a " + String(repeating: "x", count: 78), "  " + String(repeating: "x", count: 42)])
    }

    @Test func aPathTooLongForALineBreaksAfterASlashOrHyphen() {
        let path = "engines/outbox/OBX-DR-1-moved-note-deleted-with-a-folder-deleted-elsewhere.scenario"
        let lines = WordWrap.lines("fired by: " + path, first: "    ", indent: 14, width: 80)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
            == "fired by: " + path)
        #expect(lines.count == 2 && lines[0].hasSuffix("-"), "\(lines)")
    }
}
