import Foundation
import Testing
import TestSupport

/// The built binary (the release one in CI, through `SYNCLAB_BINARY`) runs every bundled
/// scenario, writes every report in both formats and sweeps every bundled chaos file
/// without crashing: release-only defects (an `-O` miscompile once crashed every scenario
/// with an extension device) cannot land unseen.
@Suite struct BinaryTests {
    @Test func everyBundledScenarioPasses() throws {
        let result = try TestSupport.run(TestSupport.synclabBinary, ["run", "Scenarios"], deadline: 300)
        #expect(result.ending == .exited(0), "\(result.output.suffix(2000))")
    }

    @Test(arguments: ["markdown", "html"])
    func everyBundledScenarioReports(_ format: String) throws {
        let folder = try TestSupport.temporaryFolder("binary-report-\(format)")
        let result = try TestSupport.run(
            TestSupport.synclabBinary, ["report", "Scenarios", "--out", folder.path, "--format", format],
            deadline: 300)
        #expect(result.ending == .exited(0), "\(result.output.suffix(2000))")
    }

    static let chaosFiles = FuzzTests.files(under: "Scenarios/explore", suffix: ".chaos")

    @Test(arguments: chaosFiles)
    func everyBundledSweepRuns(_ path: String) throws {
        // Findings may make the sweep exit 1; a crash, a hang or an input error may not.
        let result = try TestSupport.run(
            TestSupport.synclabBinary, ["explore", path, "--seeds", "5"], deadline: 300)
        #expect(result.ending == .exited(0) || result.ending == .exited(1), "\(result.output.suffix(2000))")
    }
}
