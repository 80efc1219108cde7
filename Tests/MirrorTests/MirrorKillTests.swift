import Foundation
import Testing
import TestSupport

/// MIR-28 (nothing lost on a kill), in the two places the comparison stories found it broken:
/// an import fetching this device's own export again must not overwrite a later edit, and a
/// kill between two pages must leave the rest of the zone to the next launch.
@Suite struct MirrorKillTests {
    func run(_ name: String, _ text: String) throws -> TestSupport.ProcessOutput {
        let folder = try TestSupport.temporaryFolder("mirror-kill-\(name)")
        let file = folder.appendingPathComponent("\(name).scenario")
        try Data(text.utf8).write(to: file)
        return try TestSupport.runSynclab(["run", file.path])
    }

    @Test func anEditSavedBeforeAKillSurvivesTheImportOfTheDevicesOwnExport() throws {
        let output = try run("own-export", """
            scenario "A kill as the export starts"
            engine mirror
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            settle
            phone: insert Note n1 title="A"
            settle
            when phone reaches sync.start: phone: kill
            phone: update n1 title="B"
            wait 5s
            phone: launch
            settle
            expect phone: n1 title="B"
            expect cloud alice: n1 title="B"
            expect laptop: n1 title="B"
            expect phone: fired MIR-28
            expect phone: not fired MIRW-3
            """)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
    }

    @Test func aKillBetweenTwoPagesLeavesTheRestOfTheZoneToTheNextLaunch() throws {
        let output = try run("pages", """
            scenario "A kill between two pages"
            engine mirror
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            cloud page-size 2
            settle
            laptop: kill
            phone: insert Note n1 title="1"
            phone: insert Note n2 title="2"
            phone: insert Note n3 title="3"
            settle
            when laptop reaches download.page.stored 1: laptop: kill
            laptop: launch &
            settle
            expect laptop: count Note = 2
            laptop: launch
            settle
            expect laptop: count Note = 3
            expect converged
            """)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
    }
}
