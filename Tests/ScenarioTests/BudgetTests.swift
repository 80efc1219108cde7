import Scenario
import Testing

/// Issue 11: `budget time|events` (a SyncLab addition), durations held against the time
/// budget, size and number maxima, engine states and rule IDs known to the validator, and
/// diagnostics that stay linear in their number.
@Suite struct BudgetTests {
    static let setup = header + """
        entity Note {
          title: String = ""
          body: Data?
        }
        account alice
        device phone on alice

        """

    @Test func budgetStatementsAreReadWithDaysAsAUnit() {
        let source = Self.setup + "budget time 90d\nbudget events 5000000\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.isEmpty)
        #expect(result.scenario.budget.effectiveTime == TimeSpan(microseconds: 90 * 86_400_000_000))
        #expect(result.scenario.budget.effectiveEvents == 5_000_000)
        #expect(result.scenario.budget.time?.location == SourceLocation(line: 8, column: 13))
    }

    @Test func theEveryStatementFixtureSetsBothBudgets() throws {
        let scenario = ScenarioParser.parse(source: try Fixtures.text("every-statement"), file: "x")
            .scenario
        #expect(scenario.budget.time?.value.unitText == "90d")
        #expect(scenario.budget.events?.value == 5_000_000)
    }

    @Test func defaultsAreThirtyDaysAndTwoMillionEvents() {
        let result = ScenarioChecker.check(source: Self.setup, file: "t")
        #expect(result.scenario.budget == ScenarioBudget())
        #expect(result.scenario.budget.effectiveTime.unitText == "30d")
        #expect(result.scenario.budget.effectiveEvents == 2_000_000)
    }

    @Test func budgetErrors() {
        assertDiagnostics(Self.setup + "budget 1️⃣tiem 1h\n", [.init("1️⃣",
            "expected 'time' or 'events', found 'tiem'; did you mean 'time'?", id: "expected")])
        assertDiagnostics(Self.setup + "budget time 1️⃣0s\n", [.init("1️⃣",
            "'budget time' must be more than 0s", id: "number-too-small")])
        assertDiagnostics(Self.setup + "budget events 1️⃣0\n", [.init("1️⃣",
            "number '0' must be at least 1", id: "number-too-small")])
        assertDiagnostics(Self.setup + "budget events 5\n1️⃣budget events 6\n", [.init("1️⃣",
            "second 'budget events' statement", id: "duplicate-statement")])
    }

    /// `budget` is no reserved name: a file that calls a device so keeps its meaning.
    @Test func aDeviceMayStillBeCalledBudget() {
        let source = Self.setup + "device budget on alice\nbudget: sync\n"
        #expect(ScenarioChecker.check(source: source, file: "t").diagnostics.isEmpty)
    }

    static let hint = "raise it with 'budget time D' in the file or '--max-time D' on the "
        + "command line"

    @Test func everyKindOfDurationPastTheDefaultBudgetIsPlaced() {
        let lines = [
            ("wait 1️⃣31d", "31d"), ("at 1️⃣800h", "800h"),
            ("cloud: throttle alice for 1️⃣31d", "31d"), ("cloud: outage for 1️⃣31d", "31d"),
            ("cloud: fail-downloads alice for 1️⃣31d", "31d"),
            ("cloud: throttle alice next-upload 1 records retry-after 1️⃣31d", "31d"),
            ("cloud: latency 1s..1️⃣31d", "31d"), ("cloud: push latency 1️⃣31d", "31d"),
            ("when phone reaches sync.done: cloud: outage for 1️⃣31d", "31d"),
        ]
        for (line, text) in lines {
            assertDiagnostics(Self.setup + line + "\n", [.init("1️⃣",
                "duration '\(text)' is longer than the run's time budget of 30d; \(Self.hint)",
                id: "beyond-time-budget")])
        }
        let setupLines = [
            "cloud latency 1️⃣31d", "cloud push latency 1s..1️⃣31d",
            "device laptop on alice latency 1️⃣31d",
        ]
        for line in setupLines {
            assertDiagnostics(Self.setup + line + "\n", [.init("1️⃣",
                "duration '31d' is longer than the run's time budget of 30d; \(Self.hint)",
                id: "beyond-time-budget")])
        }
    }

    @Test func chaosDurationsArePlacedToo() {
        let source = Self.setup + "budget time 1h\n"
            + "chaos workload 5 operations every 1s..1️⃣2h\nchaos fault offline 5% for 2️⃣61m\n"
        let hint = "raise 'budget time 1h' (line 8) or run with '--max-time D'"
        assertDiagnostics(source, [
            .init("1️⃣", "duration '2h' is longer than the run's time budget of 1h; \(hint)"),
            .init("2️⃣", "duration '61m' is longer than the run's time budget of 1h; \(hint)"),
        ])
    }

    @Test func waitsAddUpAndTheFirstThatPassesTheBudgetIsReported() {
        let source = Self.setup + "budget time 10m\nwait 6m\nwait 1️⃣5m\nwait 5m\n"
        assertDiagnostics(source, [.init("1️⃣",
            "'wait 5m' takes the script to 11m, past the run's time budget of 10m; raise "
                + "'budget time 10m' (line 8) or run with '--max-time D'",
            id: "beyond-time-budget")])
        let exact = Self.setup + "budget time 10m\nwait 5m\nwait 5m\nat 10m\n"
        #expect(ScenarioChecker.check(source: exact, file: "t").diagnostics.isEmpty)
    }

    /// `--max-time` overrides the file's budget, for the check as for the run.
    @Test func theCommandLineBudgetOverridesTheFile() {
        let source = Self.setup + "budget time 1h\nwait 1️⃣2h\n"
        assertDiagnostics(source, [], options: ValidationOptions(maxTime: TimeSpan(microseconds: 3 * 3_600_000_000)))
        assertDiagnostics(source, [.init("1️⃣",
            "duration '2h' is longer than the run's time budget of 90m; it is set by "
                + "'--max-time 90m' on the command line; raise that")],
            options: ValidationOptions(maxTime: TimeSpan(microseconds: 90 * 60_000_000)))
        let long = Self.setup + "budget time 90d\nwait 60d\n"
        #expect(ScenarioChecker.check(source: long, file: "t").diagnostics.isEmpty)
    }

    @Test func tooLargeNumbersStateTheirMaximum() {
        assertDiagnostics(Self.setup + "cloud page-size 1️⃣99999999999999999999\n", [.init("1️⃣",
            "number '99999999999999999999' is too large; the largest is 9223372036854775807",
            id: "number-too-large")])
        assertDiagnostics(Self.setup + "wait 1️⃣9999999999999999h\n", [.init("1️⃣",
            "duration '9999999999999999h' is too large; the largest is '9223372036854775807us' "
                + "(2^63-1 microseconds, about 292,000 years)", id: "number-too-large")])
        assertDiagnostics(Self.setup + "phone: insert Note n1 body=bytes(1️⃣99999999999999GB)\n",
            [.init("1️⃣", "size '99999999999999GB' is too large; the largest generated value "
                + "is 50MB", id: "number-too-large")])
    }

    /// `bytes(1000000GB)` used to ask for a petabyte; sizes are capped at 50 MB.
    @Test func generatedValuesAreCappedAtFiftyMegabytes() {
        assertDiagnostics(Self.setup + "phone: insert Note n1 body=bytes(1️⃣1000000GB)\n",
            [.init("1️⃣", "'bytes(1000000GB)' is larger than the 50MB a generated value may be "
                + "(CloudKit's practical limit for one asset)", id: "value-too-large")])
        assertDiagnostics(Self.setup + "phone: insert Note n1 title=text(1️⃣51200.5KB)\n",
            [.init("1️⃣", "'text(51200.5KB)' is larger than the 50MB a generated value may be "
                + "(CloudKit's practical limit for one asset)", id: "value-too-large")])
        let fits = Self.setup + "phone: insert Note n1 body=bytes(50MB) title=text(50MB)\n"
        #expect(ScenarioChecker.check(source: fits, file: "t").diagnostics.isEmpty)
        #expect(Limits.maximumGeneratedBytes == 52_428_800)
    }

    static let catalogue = ValidationOptions(
        ruleIDs: ["SYNC-1", "SYNC-2", "SYNC-9", "DL-1"],
        states: ["not-running", "idle", "waiting(retryAfter)", "waiting(network)"])

    @Test func unknownRulesAndStatesArePlacedWithSuggestions() {
        let source = Self.setup + """
            expect phone: fired 1️⃣SYNC-99
            expect not fired 2️⃣SYNC-3
            expect phone: state 3️⃣Idle
            expect phone: state 4️⃣waiting
            expect phone: state 5️⃣waiting(retry)
            expect phone: not fired 6️⃣DL-7
            expect phone: state waiting(network)
            expect fired SYNC-9

            """
        assertDiagnostics(source, [
            .init("1️⃣", "unknown rule 'SYNC-99'; did you mean 'SYNC-9'?", id: "unknown-rule"),
            .init("2️⃣", "unknown rule 'SYNC-3'; the catalogue's rules of its group are "
                + "SYNC-1 to SYNC-9 (docs/RULES.md, 'synclab rules')", id: "unknown-rule"),
            .init("3️⃣", "unknown state 'Idle'; did you mean 'idle'?", id: "unknown-state"),
            .init("4️⃣", "unknown state 'waiting'; did you mean 'waiting(retryAfter)' or "
                + "'waiting(network)'?"),
            .init("5️⃣", "unknown state 'waiting(retry)'; did you mean 'waiting(retryAfter)'?"),
            .init("6️⃣", "unknown rule 'DL-7'; did you mean 'DL-1'?"),
        ], options: Self.catalogue)
    }

    /// Without lists (the defaults), states are free and rule IDs only need their shape.
    @Test func withoutListsStatesAreFree() {
        let source = Self.setup + "expect phone: state anything\nexpect fired SYNC-99\n"
        #expect(ScenarioChecker.check(source: source, file: "t").diagnostics.isEmpty)
    }

    /// 100,000 bad characters on one line: one diagnostic each, at its own column, in file
    /// order (the check used to rescan every earlier diagnostic for each new one).
    @Test func aHundredThousandBadCharactersGiveAsManyPlacedDiagnostics() {
        let count = 100_000
        let source = header + "wait 1s\n" + String(repeating: "§", count: count) + "\n"
        let result = ScenarioChecker.check(source: source, file: "big.scenario")
        #expect(result.diagnostics.count == count)
        let columns = result.diagnostics.map(\.location.column)
        #expect(columns == Array(1...count))
        #expect(result.diagnostics.allSatisfy { $0.location.line == 3 })
        #expect(result.diagnostics.allSatisfy { $0.id.rawValue == "unexpected-character" })
        #expect(result.diagnostics.last?.rendered
            == "big.scenario:3:100000: error: unexpected character '§'")
    }

    @Test func durationsFromTheCommandLineParseAsTheFormatWritesThem() {
        #expect(TimeSpan.parse("90d") == .success(TimeSpan(microseconds: 90 * 86_400_000_000)))
        #expect(TimeSpan.parse("1.5s") == .success(TimeSpan(microseconds: 1_500_000)))
        #expect(TimeSpan.parse("5") == .failure(.notADuration))
        #expect(TimeSpan.parse("5sx") == .failure(.notADuration))
        #expect(TimeSpan.parse("s") == .failure(.notADuration))
        #expect(TimeSpan.parse("-1s") == .failure(.negative))
        #expect(TimeSpan.parse("0.5us") == .failure(.inexact))
        #expect(TimeSpan.parse("99999999999999999d") == .failure(.tooLarge))
        #expect(TimeSpan(microseconds: 5_400_000_000).unitText == "90m")
        #expect(TimeSpan(microseconds: 1_500_000).unitText == "1.5s")
    }
}
