import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing

/// A lab that knows the notes engine, next to SyncLab's own.
func notesLab() -> ScenarioLab {
    var lab = ScenarioLab()
    lab.register(NotesProfile.profile)
    return lab
}

/// SyncLab's scenario folders, found from this file (Examples/NotesSyncEngine/Tests/…).
let scenarios = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")

/// The lines of the expectations that failed.
func failedLines(_ result: LabResult) -> [Int] {
    result.expectations.filter { !$0.passed }.map(\.line)
}

@Suite struct TourTests {
    @Test func aNoteReachesTheOtherDevice() {
        let result = notesLab().run(contentsOf: scenarios.appendingPathComponent("tour/01-first-sync.scenario").path,
                                    engine: "notes")
        #expect(result.run?.failure == nil)
        // Everything holds but lines 22-23, which name sds's own rules (SYNC-1, SYNC-2).
        #expect(failedLines(result) == [22, 23], "\(result.problems)")
    }

    @Test func anOfflineEditMergesPerKey() {
        let result = notesLab().run(
            contentsOf: scenarios.appendingPathComponent("tour/02-offline-edit-merges-per-key.scenario").path,
            engine: "notes")
        // Both keys survive: the download keeps the phone's unsent title (NOTES-4), the save
        // then carries only that key. Line 26 names sds's own SYNC-4.
        #expect(failedLines(result) == [26], "\(result.problems)")
        #expect(result.firedRules.contains("NOTES-4"))
    }

    @Test func aDeletionBeatsAnOfflineEdit() {
        let result = notesLab().run(
            contentsOf: scenarios.appendingPathComponent("tour/03-deletion-beats-an-edit.scenario").path,
            engine: "notes")
        // Back online the phone fetches first: its first fetch of the zone brings the deletion
        // of the note it created (docs/CLOUDSIM.md), which deletes the note and drops the
        // pending edit (NOTES-5). Line 34 names sds's own SYNC-3.
        #expect(failedLines(result) == [34], "\(result.problems)")
        #expect(result.firedRules.contains("NOTES-5"))
    }

    @Test func identityIsNotModelled() {
        let result = notesLab().run(
            contentsOf: scenarios.appendingPathComponent("tour/04-identity-names-records.scenario").path,
            engine: "notes")
        // Records are named ENTITY-DEVICE-MODEL (NOTES-1): two subscriptions, two records.
        #expect(failedLines(result) == [29, 30, 31, 32, 33, 34, 35], "\(result.problems)")
    }
}
