import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing

/// The race the explorer found (ExplorerTests, seed 5), shrunk and saved as a plain scenario
/// (Findings/). It still fails: the example keeps the bug so the guide's story stays true.
/// The fix: in NOTES-7, delete the note instead of sending a save of a deleted record again.
@Suite struct FindingTests {
    static let finding = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Findings/seed-5-resurrection.scenario")

    @Test func anEditSentAgainAfterADeletionBringsTheNoteBack() {
        let result = notesLab().run(contentsOf: Self.finding.path)
        #expect(result.run?.failure == nil)
        // Both checks fail: the phone's deleted note is back, in iCloud and on the phone.
        #expect(failedLines(result) == [40, 41], "\(result.problems)")
        #expect(result.firedRules.contains("NOTES-7"))
    }
}
