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
        "description uses the largest exact unit",
        arguments: [
            (0, "0s"), (12, "12us"), (250_000, "250ms"), (1_500_000, "1.5s"),
            (3_000_000, "3s"), (1_000_500, "1000500us"), (61_250_000, "61.25s"),
            (-2_000, "-2ms"),
        ] as [(Int64, String)]
    )
    func description(microseconds: Int64, text: String) {
        #expect(SimTime(microseconds: microseconds).description == text)
    }
}
