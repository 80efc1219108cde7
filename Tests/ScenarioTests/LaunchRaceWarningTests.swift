import Scenario
import Testing

/// `save-races-launch`: a save written at 0 s, before anything lets time pass, races the
/// devices' launch (NAIVE-DR-1); a warning at the first such save of each device.
@Suite struct LaunchRaceWarningTests {
    static let setup = header + "engine naive\n" + """
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        device laptop on alice

        """

    /// The warnings of a timeline written after the setup, as (line, column) and message.
    static func warnings(_ timeline: String) -> [Diagnostic] {
        let result = ScenarioChecker.check(source: setup + timeline, file: "t.scenario")
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.rendered))")
        return LaunchRaceWarnings.diagnostics(for: result.scenario, file: "t.scenario")
    }

    /// The line of the first timeline statement (the setup above ends with a blank line).
    static let firstLine = setup.split(separator: "\n", omittingEmptySubsequences: false).count

    @Test func aSaveAtZeroIsPlacedAndSuggestsSettle() {
        let found = Self.warnings("phone: insert Note n1\nphone: update n1 title=\"x\"\nsettle\n")
        #expect(found.count == 1)
        #expect(found.first?.severity == .warning && found.first?.id == LaunchRaceWarnings.id)
        #expect(found.first?.rendered == "t.scenario:\(Self.firstLine):1: warning: 'phone: "
            + "insert' at 0 s races the devices' launch: an engine may send the save before its "
            + "setup is done (naive drops it, NAIVE-DR-1); write 'settle' before it to start "
            + "after the launch")
    }

    @Test func aFileThatDoesNotRunOnNaiveWarnsNothing() {
        let source = Self.setup.replacingOccurrences(of: "engine naive\n", with: "engine sds\n")
            + "phone: insert Note n1\nsettle\n"
        let result = ScenarioChecker.check(source: source, file: "t.scenario")
        #expect(LaunchRaceWarnings.diagnostics(for: result.scenario, file: "t.scenario").isEmpty)
        #expect(LaunchRaceWarnings.diagnostics(for: result.scenario, file: "t.scenario", engine: "naive").count == 1)
    }

    @Test func oneWarningPerDevice() {
        let found = Self.warnings(
            "phone: insert Note n1\nlaptop: insert Note n2\nphone: delete n1\nsettle\n")
        #expect(found.map(\.location.line) == [Self.firstLine, Self.firstLine + 1])
    }

    @Test(arguments: [
        "settle\nphone: insert Note n1\n",
        "wait 1s\nphone: insert Note n1\n",
        "at 1ms\nphone: insert Note n1\n",
        "wait until phone idle\nphone: insert Note n1\n",
        "phone: sync\nphone: insert Note n1\n",
        "phone: offline\ncloud: quota alice full\nwait 1s\nphone: insert Note n1\n",
        "phone: begin\nphone: insert Note n1\nphone: rollback\nsettle\n",
        "expect phone: count Note = 0\n",
    ])
    func nothingRacesOnceTimePassesOrNothingIsSaved(timeline: String) {
        #expect(Self.warnings(timeline).isEmpty)
    }

    @Test(arguments: [
        "wait 0s\nphone: insert Note n1\n",
        "at 0s\nphone: insert Note n1\n",
        "phone: sync &\nphone: insert Note n1\n",
        "phone: offline\nphone: insert Note n1\n",
        "phone: begin\nphone: insert Note n1\nphone: save\n",
        "phone: batch-delete Note\n",
    ])
    func aSaveBeforeTimePassesWarns(timeline: String) {
        #expect(Self.warnings(timeline).count == 1)
    }
}
