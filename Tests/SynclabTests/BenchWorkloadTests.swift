import Foundation
import Testing
import TestSupport

/// `synclab bench`'s growth and download workloads run and print their figures, and a bad
/// `--download` is a usage error.
@Suite struct BenchWorkloadTests {
    @Test func theDownloadWorkloadPrintsItsFigures() throws {
        let result = try TestSupport.run(
            TestSupport.synclabBinary, ["bench", "--download", "30,60", "--repeat", "1"], deadline: 300)
        #expect(result.ending == .exited(0), "\(result.output.suffix(2000))")
        #expect(result.output.contains("download  30 records: median "))
        #expect(result.output.contains("download  60 records: median "))
        #expect(result.output.contains("peak RSS"))
        #expect(!result.output.contains("pingpong"))
    }

    @Test func aDownloadOfNoRecordsIsAUsageError() throws {
        let result = try TestSupport.run(TestSupport.synclabBinary, ["bench", "--download", "0"], deadline: 60)
        #expect(result.ending == .exited(2), "\(result.output)")
        #expect(result.output.contains("'--download' takes positive numbers of records"))
    }

    @Test func theDiscoveryBenchListsEveryWeaknessOfTheEngine() throws {
        let result = try TestSupport.run(
            TestSupport.synclabBinary, ["bench", "--discovery", "--seeds", "12", "--engine", "mirror"],
            deadline: 300)
        #expect(result.ending == .exited(0), "\(result.output.suffix(2000))")
        #expect(result.output.contains("mirror: "))
        for id in (1...10).map({ "MIRW-\($0)" }) + ["MIR-DR-1", "MIR-DR-2", "MIR-DR-3"] {
            #expect(result.output.contains("  \(id) "), "\(id) missing from the table")
        }
        #expect(result.output.contains("first at seed "))
    }

    @Test func theDiscoveryBenchRefusesAnUnknownEngine() throws {
        let result = try TestSupport.run(
            TestSupport.synclabBinary, ["bench", "--discovery", "--engine", "mirorr"], deadline: 60)
        #expect(result.ending == .exited(2), "\(result.output)")
        #expect(result.output.contains("unknown engine 'mirorr'"))
    }
}
