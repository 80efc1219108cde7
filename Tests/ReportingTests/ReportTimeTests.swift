import Reporting
import Testing

/// Times in reports are exact and short, and read in hours and minutes once runs get long.
@Suite struct ReportTimeTests {
    @Test(arguments: [
        (Int64(0), "0s"), (800_000, "0.8s"), (4_460_749, "4.460749s"), (12, "0.000012s"),
        (60_000_000, "1m"), (90_500_000, "1m30.5s"), (3_600_000_000, "1h"),
        (3_725_000_000, "1h2m5s"), (7_200_000_001, "2h0m0.000001s"), (-1_500_000, "-1.5s"),
    ])
    func text(_ microseconds: Int64, _ expected: String) {
        #expect(ReportTime.text(microseconds: microseconds) == expected)
    }
}
