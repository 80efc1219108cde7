import Foundation
import TestSupport
import Testing

/// `check` and `run` print `save-races-launch` as a placed warning and keep the file valid.
@Suite struct LaunchRaceWarningCLITests {
    static let racing = """
        scenario "One insert at 0 s on naive"
        engine naive
        seed 1
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice

        phone: insert Note n1 title="Hello"
        settle

        """
    static let settled = racing.replacingOccurrences(
        of: "phone: insert Note n1 title=\"Hello\"\n",
        with: "settle\nphone: insert Note n1 title=\"Hello\"\n")

    @Test(arguments: ["check", "run"])
    func aSaveAtZeroIsAPlacedWarning(command: String) throws {
        let folder = try RulesCommandTests.folder(
            "launch-race-\(command)", [("racing.scenario", Self.racing)])
        let output = try TestSupport.runSynclab([command, folder + "/racing.scenario"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.hasPrefix(folder + "/racing.scenario:10:1: warning: "
            + "'phone: insert' at 0 s races the devices' launch"), "\(output.standardError)")
        #expect(output.standardError.hasSuffix(
            "write 'settle' before it to start after the launch\n"))
    }

    @Test(arguments: ["check", "run"])
    func settleFirstWarnsNothing(command: String) throws {
        let folder = try RulesCommandTests.folder(
            "launch-settled-\(command)", [("settled.scenario", Self.settled)])
        let output = try TestSupport.runSynclab([command, folder + "/settled.scenario"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.isEmpty, "\(output.standardError)")
    }
}
