import Engines
import SyncContract
import TestSupport
import Testing

@testable import SyncLabCLI

/// Piped, every listing and help text fits 80 columns (a terminal gets its own width), on
/// every registered engine.
@Suite struct TerminalWidthTests {
    static let commands = ["run", "check", "probes", "engines", "report", "compare", "bench",
        "rules", "explore"]

    func overlong(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.count > Terminal.pipedWidth }
    }

    @Test func everyHelpFits80Columns() throws {
        let overview = try TestSupport.runSynclab(["--help"])
        #expect(overlong(overview.standardOutput).isEmpty, "\(overlong(overview.standardOutput))")
        for command in Self.commands {
            let run = try TestSupport.runSynclab([command, "--help"])
            #expect(run.status == 0)
            let long = overlong(run.standardOutput)
            #expect(long.isEmpty, "\(command): \(long)")
        }
    }

    @Test func theEnginesListingFits80Columns() throws {
        let run = try TestSupport.runSynclab(["engines"])
        #expect(run.status == 0)
        #expect(overlong(run.standardOutput).isEmpty, "\(overlong(run.standardOutput))")
    }

    @Test(arguments: EngineRegistry.bundled.names)
    func probesAndRulesFit80Columns(_ engine: String) throws {
        let probes = try TestSupport.runSynclab(["probes", "--engine", engine])
        #expect(probes.status == 0)
        #expect(overlong(probes.standardOutput).isEmpty, "\(overlong(probes.standardOutput))")
        let rules = try TestSupport.runSynclab(["rules", "--engine", engine])
        #expect(rules.status == 0, "\(rules.standardError)")
        #expect(overlong(rules.standardOutput).isEmpty, "\(overlong(rules.standardOutput))")
    }

    @Test func aWiderTerminalGetsLongerLines() {
        let profiles = EngineRegistry.bundled.profiles
        let narrow = EnginesCommand.lines(profiles, width: 80)
        let wide = EnginesCommand.lines(profiles, width: 120)
        #expect(wide.allSatisfy { $0.count <= 120 })
        #expect(wide.count < narrow.count)
        #expect(wide.contains { $0.count > 80 })
    }
}
