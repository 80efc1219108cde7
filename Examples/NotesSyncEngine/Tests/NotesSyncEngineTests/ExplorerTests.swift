import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing

/// A short chaos sweep of the notes engine: two devices edit and delete notes while the
/// network and the devices fail under them; the explorer checks every run's invariants.
let notesChaos = """
    scenario "Notes under chaos"
    engine notes
    entity Note {
      title: String = ""
      body: String?
    }
    account alice
    device phone on alice
    device laptop on alice
    chaos workload 40 operations on Note every 100ms..1s
    chaos mix insert 25% update 55% delete 20%
    chaos fault offline 10% for 1s..20s
    """

@Suite struct ExplorerTests {
    @Test func aShortSweepFindsTheRaceAndShrinksIt() throws {
        let exploration = notesLab().explorer(notesChaos, file: "notes.chaos", shrinkRuns: 60)
        let explorer = try #require(exploration.explorer, "\(exploration.diagnostics)")
        let results = (1...8).map { explorer.run(seed: UInt64($0)) }
        // No run breaks the executor's rules or the budget.
        #expect(results.allSatisfy { $0.primaryCheck != .runtime && $0.outcome != .budgetFailure })
        // Seed 5 brings back a note deleted while another device's edit of it waited offline.
        let finding = try #require(results.first { $0.outcome == .newFinding })
        #expect(finding.seed == 5)
        #expect(finding.primaryCheck == .resurrection)
        let shrunk = try #require(explorer.shrink(finding))
        #expect(shrunk.report.reproduces)
        // The shrunk scenario is plain text that fails on its own.
        let replay = notesLab().run(shrunk.text, file: shrunk.report.file)
        #expect(!replay.passed)
        #expect(shrunk.report.stepsAfter < shrunk.report.stepsBefore)
    }
}
