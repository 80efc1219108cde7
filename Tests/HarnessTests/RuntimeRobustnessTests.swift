import Engines
import Harness
import Kernel
import Scenario
import Testing

/// Issue 11 (runtime half): nothing crashes, hangs or misleads, whatever valid input says.
@Suite struct RuntimeRobustnessTests {
    static func run(_ source: String, options: RunOptions = RunOptions()) -> RunResult {
        let checked = ScenarioChecker.check(
            source: source, file: "inline.scenario", options: ScenarioRunner.validationOptions)
        #expect(!checked.hasErrors, "\(checked.diagnostics.map(\.rendered))")
        return ScenarioRunner.run(checked.scenario, source: source, options: options)
    }

    static let header = """
        scenario "t"
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice

        """

    // MARK: Item 2: huge durations saturate

    @Test(arguments: [
        "wait 1m\nwait 2562047788h",
        "wait 1m\ncloud: outage for 2562047788h\nphone: insert Note n1\nsettle",
        "wait 1m\ncloud: throttle alice for 2562047788h\nphone: insert Note n1\nsettle",
        "wait 1m\ncloud: fail-downloads alice for 2562047788h\nphone: sync\nsettle",
        "wait 1m\ncloud: throttle alice next-upload 1 records retry-after 2562047788h\n"
            + "phone: insert Note n1\nsettle",
        "wait 1m\ncloud: latency 2562047788h\nphone: insert Note n1\nwait 1s",
        "wait 1m\ncloud: push latency 2562047788h\nphone: insert Note n1\nsettle",
    ])
    func hugeDurationsNeverTrap(_ timeline: String) {
        // An unlimited time budget: the saturated times themselves must not trap.
        for maxTime in [SimTime.hours(24 * 30), .max] {
            let result = Self.run(Self.header + timeline, options: RunOptions(maxTime: maxTime))
            if let failure = result.failure {
                #expect(failure.message.contains("budget exceeded")
                    || failure.message.contains("did not happen within"), "\(failure)")
            }
            #expect(result.endTime >= .minutes(1))
        }
    }

    @Test func aWaitPastTheBudgetIsATimeBudgetFailure() {
        let result = Self.run(Self.header + "wait 1m\nwait 2562047788h")
        #expect(result.failure?.message.contains("budget exceeded") == true)
        #expect(result.failure?.line == 8)
    }

    // MARK: Item 4: livelock

    static let livelock = """
        cloud latency 0ms
        phone: insert Note n1 title="one"
        settle
        cloud: delete-zone alice
        cloud: fail-downloads alice for 1h
        phone: update n1 title="two"
        settle
        expect cloud alice: n1 title="two"
        """

    @Test func aFailingDownloadWithTheZoneGoneWaitsForItsRetry() {
        let result = Self.run(Self.header + Self.livelock)
        #expect(result.passed, "\(result.failure?.description ?? "") \(result.expectations)")
        #expect(result.trace.events.count < 500)
        #expect(result.trace.events.contains { $0.kind == "sync.deferred" && $0.rules == ["ERR-3"] })
    }

    @Test func theLivenessGuardNamesTheLoop() {
        var options = RunOptions()
        options.mechanisms.ignoresRetryWhenSyncWanted = true
        let result = Self.run(Self.header + Self.livelock, options: options)
        let failure = result.failure
        #expect(failure?.message == "livelock: 'phone' started 1000 times a synchronization "
            + "(sync.start) at 1s without simulated time moving")
        #expect(failure?.time == .seconds(1))
        #expect(failure?.line == 13, "the settle that loops")
        #expect(result.trace.events.count < 200_000)
    }
}
