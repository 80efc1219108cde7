import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing

/// Two stories of SyncLab's engine comparison (Scenarios/compare), on the notes engine.
@Suite struct CompareTests {
    @Test func storyOneKeepsBothKeys() {
        let result = notesLab().run(
            contentsOf: scenarios.appendingPathComponent("compare/01-offline-edit-of-another-key.scenario").path,
            engine: "notes")
        // A's title and B's body both survive; the [sds]/[naive] lines are not this engine's.
        #expect(result.run?.failure == nil)
        #expect(failedLines(result) == [], "\(result.problems)")
        #expect(result.passed)
    }

    @Test func storyTwoTheOfflineEditWins() {
        let result = notesLab().run(
            contentsOf: scenarios.appendingPathComponent("compare/02-same-key-offline.scenario").path,
            engine: "notes")
        #expect(failedLines(result) == [], "\(result.problems)")
        // The phone's offline title wins: its save is resent on the server's record (NOTES-3).
        #expect(result.firedRules.contains("NOTES-3"))
    }
}
