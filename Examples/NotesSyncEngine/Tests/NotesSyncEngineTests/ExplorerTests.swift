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
    chaos workload 12 operations on Note by phone, laptop every 200ms..2s
    """

@Suite struct ExplorerTests {
    @Test func aShortSweepFindsTheRaceAndShrinksIt() throws {
        let exploration = notesLab().explorer(notesChaos, file: "notes.chaos", shrinkRuns: 60)
        let explorer = try #require(exploration.explorer, "\(exploration.diagnostics)")
        let results = (1...6).map { explorer.run(seed: UInt64($0)) }
        // No run breaks the executor's rules or the budget.
        #expect(results.allSatisfy { $0.primaryCheck != .runtime && $0.outcome != .budgetFailure })
        // Some seed loses or resurrects a note: the engine's known weakness (tour 03).
        let finding = try #require(results.first { $0.outcome == .newFinding })
        let shrunk = try #require(explorer.shrink(finding))
        #expect(shrunk.report.reproduces)
        // The shrunk scenario is plain text that fails on its own.
        let replay = notesLab().run(shrunk.text, file: shrunk.report.file)
        #expect(!replay.passed)
    }
}
