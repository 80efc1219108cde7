import Kernel
import Testing

/// Issue 11, item 2: huge but valid durations saturate instead of trapping.
@Suite("SimTime saturating arithmetic")
struct SimTimeSaturatingTests {
    static let almostMax = SimTime(microseconds: .max - 10)

    @Test("adding stays exact in range and stops at the ends")
    func adding() {
        #expect(SimTime.seconds(1).adding(.milliseconds(500)) == .microseconds(1_500_000))
        #expect(Self.almostMax.adding(.microseconds(10)) == .max)
        #expect(Self.almostMax.adding(.microseconds(11)) == .max)
        #expect(SimTime.minutes(1).adding(.hours(2_562_047_788)) == .max)
        #expect(SimTime.max.adding(.max) == .max)
        #expect(SimTime(microseconds: .min + 1).adding(.microseconds(-5)) == SimTime(microseconds: .min))
    }

    @Test("subtracting and multiplying stop at the ends")
    func subtractingAndMultiplying() {
        #expect(SimTime.seconds(2).subtracting(.seconds(3)) == .seconds(-1))
        #expect(SimTime(microseconds: .min).subtracting(.microseconds(1)) == SimTime(microseconds: .min))
        #expect(SimTime.max.subtracting(.microseconds(-1)) == .max)
        #expect(SimTime.seconds(3).multiplied(by: 4) == .seconds(12))
        #expect(SimTime.hours(2_562_047_788).multiplied(by: 2) == .max)
        #expect(SimTime.hours(2_562_047_788).multiplied(by: -2) == SimTime(microseconds: .min))
    }

    @Test("the kernel schedules a huge delay as due past the budget instead of trapping")
    func kernelSaturates() {
        var kernel = Kernel<Int>(budget: Budget(maxTime: .hours(24), maxEvents: 100))
        let actor = kernel.actor(named: "phone")
        kernel.schedule(after: .seconds(1), actor: actor, 1)
        guard case .event = kernel.next() else {
            Issue.record("the first event did not run")
            return
        }
        kernel.schedule(after: .max, actor: actor, 2)
        kernel.schedule(after: .max, actor: "phone", 3)
        #expect(kernel.nextTime == .max)
        guard case .budgetExceeded(let failure) = kernel.next() else {
            Issue.record("an event due at the end of time ran")
            return
        }
        #expect(failure.reason == .time)
        #expect(kernel.now == .seconds(1))
    }
}
