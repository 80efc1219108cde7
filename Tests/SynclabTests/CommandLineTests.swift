import Foundation
import Testing
import TestSupport

/// Issue 11 items 10, 11, 14: the command line's help, version, usage hints, budgets and
/// time format, through the real binary.
@Suite struct CommandLineTests {
    static let commands = ["run", "check", "probes", "report", "bench", "rules", "explore"]

    @Test(arguments: commands)
    func helpCommandIsCommandHelp(_ command: String) throws {
        let viaHelp = try TestSupport.runSynclab(["help", command])
        let viaFlag = try TestSupport.runSynclab([command, "--help"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.standardOutput == viaFlag.standardOutput)
        #expect(viaHelp.standardOutput.hasPrefix("USAGE: synclab \(command)"))
    }

    @Test func helpOfAnUnknownCommandIsAUsageError() throws {
        let output = try TestSupport.runSynclab(["help", "rnu"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("did you mean 'run'?"))
        #expect(output.standardError.contains("see 'synclab --help'"))
    }

    @Test func versionIsPrinted() throws {
        let output = try TestSupport.runSynclab(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput == "synclab 0.11.0\n")
    }

    @Test func runUsageListsEveryOption() throws {
        let output = try TestSupport.runSynclab(["run", "--help"])
        let usage = output.standardOutput.split(separator: "\n").prefix(2).joined(separator: " ")
        for option in ["--seed", "--trace-out", "--trace-format", "--junit", "--max-time",
                       "--max-events"] {
            #expect(usage.contains(option), "USAGE of run lacks \(option)")
        }
    }

    /// Each command's usage errors point to that command's own help.
    @Test(arguments: [
        (["check", "--nope"], "check"), (["probes", "x"], "probes"),
        (["bench", "--nope"], "bench"), (["run", "--nope"], "run"),
        (["report", "--nope"], "report"), (["explore", "--nope"], "explore"),
        (["rules", "--nope"], "rules"), (["nope"], ""),
    ])
    func usageErrorsPointToTheirOwnHelp(_ arguments: [String], _ command: String) throws {
        let output = try TestSupport.runSynclab(arguments)
        #expect(output.status == 2)
        let help = command.isEmpty ? "see 'synclab --help'" : "see 'synclab \(command) --help'"
        #expect(output.standardError.contains(help), "\(arguments): \(output.standardError)")
    }

    static let twoDevices = """
        scenario "Two devices"
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        device laptop on alice
        phone: insert Note n1 title="a"
        settle
        expect converged

        """

    @Test func budgetsAreSetInTheFileOrOnTheCommandLineAndNamedWhenReached() throws {
        let folder = try TestSupport.temporaryFolder("budgets")
        let file = folder.appendingPathComponent("b.scenario")
        try Data(Self.twoDevices.replacingOccurrences(of: "device phone", with: "budget events 20\ndevice phone").utf8).write(to: file)
        let limited = try TestSupport.runSynclab(["run", file.path])
        #expect(limited.status == 1)
        #expect(limited.standardOutput.contains(
            "runtime error: budget exceeded: the run's event budget of 20 events was used up"))
        #expect(limited.standardOutput.contains(
            "raise it with 'budget events N' in the scenario or '--max-events N'"))
        let raised = try TestSupport.runSynclab(["run", file.path, "--max-events", "100000"])
        #expect(raised.status == 0, "\(raised.standardOutput)")
        let short = try TestSupport.runSynclab(["run", file.path, "--max-events", "100000", "--max-time", "1s"])
        #expect(short.status == 1)
        #expect(short.standardOutput.contains("the run would pass its time budget of 1s"))
        #expect(short.standardOutput.contains("rerun: synclab run \(file.path) --seed 1 --max-time 1s --max-events 100000"))
        let bad = try TestSupport.runSynclab(["run", file.path, "--max-time", "5"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("'--max-time' takes a duration, not '5'"))
    }

    @Test func durationsPastTheCommandLineBudgetAreInputErrors() throws {
        let folder = try TestSupport.temporaryFolder("max-time")
        let file = folder.appendingPathComponent("w.scenario")
        try Data((Self.twoDevices + "wait 2h\n").utf8).write(to: file)
        let output = try TestSupport.runSynclab(["run", file.path, "--max-time", "1h"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("\(file.path):11:6: error: duration '2h' is "
            + "longer than the run's time budget of 1h; it is set by '--max-time 1h' on the "
            + "command line; raise that"))
    }

    /// The PASS line shows simulated time as reports do (`1m12.864137s`), not in µs.
    @Test func simulatedTimeShowsInTheOneFormat() throws {
        let output = try TestSupport.runSynclab(["run", "Scenarios/tour/01-first-sync.scenario"])
        #expect(output.status == 0)
        let line = output.standardOutput.split(separator: "\n").last { $0.contains("PASS") } ?? ""
        #expect(line.hasSuffix("s simulated)"))
        #expect(!line.contains("us simulated") && !line.contains("ms simulated"))
    }

    @Test func exploreWithoutAWorkloadIsPlaced() throws {
        let output = try TestSupport.runSynclab(["explore", "Scenarios/tour/01-first-sync.scenario"])
        #expect(output.status == 2)
        #expect(output.standardError.hasPrefix("Scenarios/tour/01-first-sync.scenario:1:1: "
            + "error: no 'chaos workload' line"))
    }

    /// Every bundled file checks with the rule catalogue and the engine's states.
    @Test func bundledScenariosCheckWithTheCatalogue() throws {
        let output = try TestSupport.runSynclab(["check", "Scenarios"])
        #expect(output.status == 0, "\(output.standardError)")
    }
}
