import Foundation
import NotesLab
import SyncLab
import SyncLabCLI
import Testing

/// The example's scenario files, found from this file (Examples/CloudKitNotes/Tests/…).
let scenarios = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")

/// The app's schema and its two devices, for the sweeps (the base file of `notes-lab`'s).
let notesBase = scenarios.appendingPathComponent("notes-base.scenario")
let notesSetup = (try? String(contentsOf: notesBase, encoding: .utf8)) ?? ""

@Suite struct ScenarioTests {
    @Test func aScenarioFileDrivesTheApp() {
        let result = notesLab().run(contentsOf: scenarios.appendingPathComponent("offline-edit.scenario").path)
        #expect(result.passed, "\(result.problems)")
    }

    /// The explorer finds the race kept in Findings/ without being told where to look, and
    /// names it: a whole-note merge loses another device's edit (APPW-2, docs/APP-RULES.md).
    @Test func theExplorerSweepsTheApp() throws {
        let chaos = notesSetup + """

            chaos workload 20 operations on Note every 100ms..1s
            chaos mix insert 30% update 50% delete 20%
            chaos fault offline 10% for 1s..20s
            """
        let exploration = notesLab().explorer(
            chaos, file: "notes.chaos", shrinkRuns: 40, shrinkExplained: true)
        let explorer = try #require(exploration.explorer, "\(exploration.diagnostics)")
        let results = (1...12).map { explorer.run(seed: UInt64($0)) }
        #expect(results.allSatisfy { $0.primaryCheck != .runtime && $0.outcome != .budgetFailure },
                "\(results.map { "\($0.seed): \($0.outcome) \($0.violations)" })")
        #expect(results[1].outcome == .explained)
        #expect(results[1].firedWeaknesses.contains("APPW-2"))
        let (_, divergence) = explorer.runTwice(seed: 2)
        #expect(divergence == nil)
        // A finding shrinks to a plain scenario that fails on its own.
        for finding in results where finding.outcome != .clean {
            let shrunk = try #require(explorer.shrink(finding))
            #expect(shrunk.report.reproduces)
            #expect(!notesLab().run(shrunk.text, file: shrunk.report.file).passed)
        }
    }
}

@Suite struct SwarmTests {
    /// The swarm explorer keeps the app's schema and devices and draws the workload, the
    /// mix and the faults per seed. (A few shrink runs: the test asks that a finding shrinks
    /// into a scenario that still fails, not how small it gets, and each run is a whole story.)
    @Test func theSwarmSweepsTheApp() throws {
        let swarm = notesLab().swarm(notesSetup, shrinkRuns: 8, shrinkExplained: true)
        let results = try (UInt64(1)...4).map { seed in
            try #require(swarm.run(seed: seed), "seed \(seed) drew nothing the app accepts")
        }
        #expect(results.allSatisfy { $0.primaryCheck != .runtime && $0.outcome != .budgetFailure },
                "\(results.map { "\($0.seed): \($0.outcome) \($0.violations)" })")
        #expect(try #require(swarm.run(seed: 1)) == results[0])
        if let finding = results.first(where: { $0.outcome != .clean }) {
            let shrunk = try #require(swarm.shrink(finding))
            #expect(shrunk.text.hasPrefix("# swarm seed \(finding.seed): "))
            #expect(!notesLab().run(shrunk.text, file: shrunk.report.file).passed)
        }
    }
}

@Suite(.serialized) struct CommandLineTests {
    /// `notes-lab explore --swarm Scenarios/notes-base.scenario --engine notes` sweeps the app
    /// as `synclab` sweeps a bundled engine, and its summary is the same on one job or two.
    @Test func theCommandLineSweepsTheAppOnOneJobOrTwo() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-lab-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summaries = try [1, 2].map { jobs in
            let json = folder.appendingPathComponent("jobs-\(jobs).json")
            let output = folder.appendingPathComponent("jobs-\(jobs).txt")
            let status = standardOutput(to: output) {
                SyncLabCLI.run(
                    ["explore", "--swarm", notesBase.path, "--engine", "notes", "--seeds", "2",
                     "--jobs", "\(jobs)", "--shrink-limit", "0", "--json", json.path],
                    lab: notesLab())
            }
            #expect(status != 2)
            // The lines that rerun a seed name the lab's executable: `synclab` lacks `notes`.
            let printed = try String(contentsOf: output, encoding: .utf8)
            #expect(printed.contains("rerun: notes-lab explore --swarm "), "\(printed)")
            #expect(!printed.contains("synclab explore"))
            return try Data(contentsOf: json)
        }
        #expect(summaries[0] == summaries[1])
    }

    /// Its help names `notes-lab`, so the commands it suggests are ones it can run.
    @Test func itsHelpNamesItsOwnExecutable() throws {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-lab-help-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = standardOutput(to: output) {
            SyncLabCLI.run(["explore", "--help"], lab: notesLab())
        }
        #expect(status == 0)
        let printed = try String(contentsOf: output, encoding: .utf8)
        #expect(printed.contains("USAGE: notes-lab explore FILE"), "\(printed)")
        #expect(!printed.contains("synclab"))
    }

    /// Runs `body` with the process's standard output going to `file`.
    func standardOutput(to file: URL, _ body: () -> Int32) -> Int32 {
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        dup2(descriptor, STDOUT_FILENO)
        close(descriptor)
        defer {
            fflush(nil)
            dup2(saved, STDOUT_FILENO)
            close(saved)
        }
        return body()
    }
}

@Suite struct FindingTests {
    /// Whole-note last-edit-wins: the phone's later edit of `count`, made on a note that does
    /// not have the laptop's `text` yet, brings the old text back everywhere. The explorer's
    /// shrunk scenario fails until the app merges per field.
    @Test func theWholeNoteWinsAndAConcurrentEditOfAnotherFieldIsLost() {
        let file = scenarios.deletingLastPathComponent()
            .appendingPathComponent("Findings/seed-2-whole-note-wins.scenario")
        let result = notesLab().run(contentsOf: file.path)
        #expect(result.run?.failure == nil)
        #expect(result.expectations.filter { !$0.passed }.map(\.line) == [35, 36, 37])
    }
}
