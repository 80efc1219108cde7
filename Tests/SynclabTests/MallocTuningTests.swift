import Foundation
import Testing
import TestSupport

/// `explore` and `bench` start again with a larger malloc thread cache unless the
/// environment names glibc tunables (`MallocTuning`); nothing they print depends on it.
@Suite struct MallocTuningTests {
    #if os(Linux)
    @Test func benchRunsWithTheLargerCacheUnlessTunablesAreSet() throws {
        let inherited = ProcessInfo.processInfo.environment["GLIBC_TUNABLES"]
        let tuned = try TestSupport.run(
            TestSupport.synclabBinary, ["bench", "--download", "10", "--repeat", "1"], deadline: 300)
        #expect(tuned.ending == .exited(0), "\(tuned.output.suffix(2000))")
        let expected = inherited.map { $0.isEmpty ? "glibc malloc, default settings (GLIBC_TUNABLES is empty)"
            : "glibc malloc, GLIBC_TUNABLES=\($0)" }
            ?? "glibc malloc, GLIBC_TUNABLES=glibc.malloc.tcache_count=127"
        #expect(tuned.output.contains("allocator: \(expected)\n"), "\(tuned.output)")

        let optedOut = try TestSupport.run(
            TestSupport.synclabBinary, ["bench", "--download", "10", "--repeat", "1"], deadline: 300,
            environment: ["GLIBC_TUNABLES": ""])
        #expect(optedOut.ending == .exited(0), "\(optedOut.output.suffix(2000))")
        #expect(optedOut.output.contains(
            "allocator: glibc malloc, default settings (GLIBC_TUNABLES is empty)\n"), "\(optedOut.output)")
    }
    #endif

    @Test func exploreFindsTheSameWithEitherAllocatorSetting() throws {
        let arguments = ["explore", "Scenarios/explore/swarm.chaos", "--seeds", "4", "--shrink-limit", "0"]
        let tuned = try TestSupport.run(TestSupport.synclabBinary, arguments, deadline: 300)
        let untuned = try TestSupport.run(
            TestSupport.synclabBinary, arguments, deadline: 300, environment: ["GLIBC_TUNABLES": ""])
        #expect(tuned.ending == untuned.ending)
        #expect(!tuned.output.isEmpty)
        #expect(tuned.output == untuned.output)
    }
}
