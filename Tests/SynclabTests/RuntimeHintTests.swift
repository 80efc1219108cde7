import Foundation
import TestSupport
import Testing

/// What a failed run says about what it cut off and why: expectations not reached are
/// counted, a missing label says where its model is and what to do, and `converged` names
/// records by the file's labels.
@Suite struct RuntimeHintTests {
    /// The README's comparison story without its first `settle`: naive's first save races
    /// the launch (NAIVE-DR-1), and the laptop's update of n1 cannot run.
    static let race = """
        scenario "A save at once"
        seed 7
        entity Note {
          title: String = ""
          body: String?
        }
        account alice
        device phone on alice
        device laptop on alice
        phone: insert Note n1 title="Groceries" body="milk"
        settle
        expect laptop: n1 title="Groceries"
        laptop: update n1 body="milk, eggs"
        settle
        expect phone: n1 body="milk, eggs"
        expect laptop: n1 body="milk, eggs"
        expect converged
        """

    func scratch(_ text: String, name: String) throws -> String {
        let folder = try TestSupport.temporaryFolder("runtime-hints-\(name)")
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    @Test func aLabelLostToALaunchRaceNamesTheWeaknessAndTheWorkaround() throws {
        let path = try scratch(Self.race, name: "race.scenario")
        let run = try TestSupport.runSynclab(["run", path, "--engine", "naive"])
        #expect(run.status == 1)
        let out = run.standardOutput
        #expect(out.contains("\(path):12: expectation failed: expect laptop: n1 title=\"Groceries\"; "
            + "found: no n1 ('n1' was inserted on 'phone' and its save never reached iCloud "
            + "(NAIVE-DR-1 fired on 'phone'); 'settle' before the first save"), "\(out)")
        #expect(out.contains("\(path):13: runtime error: device 'laptop' has no model for label "
            + "'n1': 'n1' was inserted on 'phone' and its save never reached iCloud (NAIVE-DR-1"),
            "\(out)")
        // The summary counts what the runtime error cut off.
        #expect(out.contains("(seed 7, 4 expectations: 1 failed, 3 not reached, runtime error)"),
            "\(out)")
        // The same story with a first `settle` passes on naive.
        let settled = try scratch(Self.race.replacingOccurrences(
            of: "phone: insert", with: "settle\nphone: insert"), name: "settled.scenario")
        let fixed = try TestSupport.runSynclab(["run", settled, "--engine", "naive"])
        #expect(fixed.status == 0, "\(fixed.standardOutput)")
    }

    @Test func aLabelNotSynchronizedYetSuggestsSettle() throws {
        let path = try scratch("""
            scenario "Too early"
            entity Note {
              title: String = ""
            }
            account alice
            device phone on alice
            device laptop on alice
            phone: insert Note n1 title="A"
            wait 1s
            expect laptop: n1 title="A"
            expect converged
            """, name: "early.scenario")
        let run = try TestSupport.runSynclab(["run", path])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("found: no n1 ('n1' was inserted on 'phone' and has "
            + "not reached iCloud yet; the devices may not have synchronized ('settle' before "
            + "this line))"), "\(run.standardOutput)")
        // `converged` names the record by its label, not by its record name.
        #expect(run.standardOutput.contains(
            "expect converged; found: phone has n1, which iCloud lacks\n"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("(seed 1, 2 expectations: 2 failed)"))
    }
}
