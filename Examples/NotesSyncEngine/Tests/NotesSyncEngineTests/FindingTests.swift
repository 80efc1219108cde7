import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing

/// The race the explorer found (ExplorerTests, seed 8), shrunk and saved as a plain scenario
/// (Findings/). It still fails: the example keeps the bug so the guide's story stays true.
/// The fix: in NOTES-3, do not send a conflicting save again for a note deleted meanwhile.
@Suite struct FindingTests {
    static let finding = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Findings/seed-8-resurrection.scenario")

    @Test func aConflictResentAfterALocalDeleteBringsTheNoteBack() {
        let result = notesLab().run(contentsOf: Self.finding.path)
        #expect(result.run?.failure == nil)
        // Both checks fail: the phone's deleted note is back, in iCloud and on the phone.
        #expect(failedLines(result) == [36, 37], "\(result.problems)")
        #expect(result.firedRules.contains("NOTES-3"))
    }
}
