import Kernel
import Testing

@Suite("SimTime")
struct SimTimeTests {
    @Test("units convert to whole microseconds")
    func units() {
        #expect(SimTime.milliseconds(3).microseconds == 3_000)
        #expect(SimTime.seconds(2).microseconds == 2_000_000)
        #expect(SimTime.minutes(1) == .seconds(60))
        #expect(SimTime.hours(1) == .minutes(60))
        #expect(SimTime.seconds(1) + .milliseconds(500) == .microseconds(1_500_000))
        #expect(SimTime.seconds(1) - .milliseconds(1) == .microseconds(999_000))
        #expect(SimTime.zero < .microseconds(1) && .microseconds(1) < SimTime.max)
    }

    @Test(
        "description is exact, in hours and minutes once long (the one format users see)",
        arguments: [
            (0, "0s"), (12, "0.000012s"), (250_000, "0.25s"), (1_500_000, "1.5s"),
            (3_000_000, "3s"), (1_000_500, "1.0005s"), (61_250_000, "1m1.25s"),
            (72_864_137, "1m12.864137s"), (3_600_000_000, "1h"), (7_205_500_000, "2h0m5.5s"),
            (2_592_000_000_000, "720h"), (-2_000, "-0.002s"),
            (Int64.min, "-2562047788h0m54.775807s"),
        ] as [(Int64, String)]
    )
    func description(microseconds: Int64, text: String) {
        #expect(SimTime(microseconds: microseconds).description == text)
    }
}
