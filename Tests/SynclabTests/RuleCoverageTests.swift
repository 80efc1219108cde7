import TestSupport
import Testing

/// Every rule of the catalogue fires in a passing bundled scenario (CFG-2 and ID-6, enforced
/// when a file is read, excepted): `synclab rules --check Scenarios` is the proof.
@Suite struct RuleCoverageTests {
    @Test func everyRuleFiresInABundledScenario() throws {
        let run = try TestSupport.runSynclab(["rules", "--check", "Scenarios"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("every rule of the catalogue"))
    }
}
