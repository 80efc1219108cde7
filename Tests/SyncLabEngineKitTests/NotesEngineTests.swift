import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing
import TestSupport

/// The example engine (Examples/NotesSyncEngine) under the library API, in process.
@Suite struct NotesEngineTests {
    static var lab: ScenarioLab {
        var lab = ScenarioLab()
        lab.register(NotesProfile.profile)
        return lab
    }

    @Test func aNoteReachesTheOtherDevice() {
        let result = Self.lab.run("""
            scenario "One note"
            engine notes
            entity Note {
              title: String = ""
              body: String?
            }
            account alice
            device phone on alice
            device laptop on alice
            phone: insert Note n1 title="Groceries" body="milk"
            settle
            expect cloud alice: n1 title="Groceries" body="milk"
            expect laptop: n1 title="Groceries" body="milk"
            expect phone: pending 0
            expect phone: fired NOTES-2
            expect laptop: fired NOTES-4
            expect converged
            """, file: "one.scenario")
        #expect(result.passed, "\(result.problems.joined(separator: "\n"))")
        #expect(result.engine == "notes")
    }
}
