import Engines
import Harness
import Kernel
import Scenario
import SyncContract
import Testing
import TestSupport

/// Issue 11 (runtime half): nothing crashes, hangs or misleads, whatever valid input says.
@Suite struct RuntimeRobustnessTests {
    static func run(_ source: String, options: RunOptions = RunOptions(engines: .bundled)) -> RunResult {
        // Validated with an unlimited time budget: these tests hand the runtime durations the
        // validator would refuse under the default budget (as a caller of the Swift API can),
        // to prove the runtime itself saturates instead of trapping.
        let checked = ScenarioChecker.check(
            source: source, file: "inline.scenario",
            options: EngineRegistry.bundled.validationOptions(maxTime: .max))
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
            let result = Self.run(Self.header + timeline, options: RunOptions(engines: .bundled, maxTime: maxTime))
            if let failure = result.failure {
                #expect(failure.message.contains("budget exceeded")
                    || failure.message.contains("did not happen within"), "\(failure)")
            }
            #expect(result.endTime >= .minutes(1))
        }
    }

    /// The explorer's draws add fault durations and step intervals the same way.
    @Test func hugeChaosDurationsNeverTrap() {
        let source = Self.header + """
            chaos workload 3 operations on Note every 9223372036854775807us..9223372036854775807us
            chaos fault outage 50% for 2562047788h
            chaos fault throttle 50% for 2562047788h
            """
        let result = Self.run(source)
        #expect(result.expectations.count > 0)
        #expect(result.failure == nil || result.failure?.message.contains("budget") == true)
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
        cloud: fail-downloads alice for 10m
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
        var options = RunOptions(engines: .bundled)
        options.mechanisms["ignoresRetryWhenSyncWanted"] = true
        let result = Self.run(Self.header + Self.livelock, options: options)
        let failure = result.failure
        #expect(failure?.message == "livelock: 'phone' started 1000 times a synchronization "
            + "(sync.start) at 1s without simulated time moving")
        #expect(failure?.time == .seconds(1))
        #expect(failure?.line == 13, "the settle that loops")
        #expect(result.trace.events.count < 200_000)
    }
}

/// Issue 11, items 5 and 9: every waiting action ends, and every run accounts for leftovers.
@Suite struct LeftoverTests {
    static func run(_ source: String) -> RunResult { RuntimeRobustnessTests.run(source) }

    @Test func initializeSchemaWithoutAnAccountFailsAtOnce() {
        let result = Self.run("""
            scenario "t"
            entity Note {
              title: String = ""
            }
            device phone
            phone: initialize-schema
            expect phone: state signed-out
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        #expect(result.endTime == .zero, "the wait ended at once")
        #expect(result.leftoverAccount.unfinishedActions == [Leftovers.UnfinishedAction(
            line: 6, device: "phone", action: "initialize-schema",
            reason: "synchronizing cannot start (signed out)", failed: true)])
        #expect(result.leftovers == [
            "line 6: 'phone: initialize-schema' failed: synchronizing cannot start (signed out)",
        ])
        #expect(result.trace.events.contains { $0.kind == "action.failed" })
    }

    @Test func initializeSchemaDuringAnOutageFailsAndCanBeCalledAgain() {
        let result = Self.run(RuntimeRobustnessTests.header + """
            settle
            cloud: outage for 10s
            phone: initialize-schema
            expect phone: refused serviceUnavailable
            wait 20s
            phone: initialize-schema
            expect phone: fired SCHEMA-3
            """)
        #expect(result.passed, "\(result.failure?.description ?? "") \(result.expectations)")
        #expect(result.endTime < .seconds(40), "neither wait took the hour")
        let unfinished = result.leftoverAccount.unfinishedActions
        #expect(unfinished.map(\.line) == [9])
        #expect(unfinished.first?.failed == true)
        #expect(unfinished.first?.reason.hasPrefix("serviceUnavailable") == true)
    }

    /// Item 9: a change that cannot upload for hours no longer ends the run quietly.
    @Test func aPassingRunListsTheChangesItDidNotUpload() {
        let result = Self.run(RuntimeRobustnessTests.header + """
            device laptop on alice
            phone: insert Note n1 title="one"
            phone: insert Note n2 title="two"
            settle
            cloud: throttle alice for 2000000h
            phone: update n2 title="2"
            phone: update n1 title="1"
            phone: delete n2
            when laptop reaches upload.sent: laptop: kill
            settle
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
        let account = result.leftoverAccount
        #expect(account.notUploaded == [Leftovers.NotUploaded(
            device: "phone", models: ["n1"], deletions: ["n2"])])
        #expect(account.unfiredTriggers.map(\.line) == [15])
        #expect(result.leftovers == [
            "phone: 2 change(s) not uploaded: n1, deletion of n2",
            "line 15: trigger at 'upload.sent' of 'laptop' never fired",
        ])
        let end = result.trace.events.last
        #expect(end?.kind == "run.end")
        #expect(end?.details.first?.value == .list(result.leftovers.map { .string($0) }))
    }

    @Test func anActionStillRunningAtTheEndIsALeftover() {
        let result = Self.run(RuntimeRobustnessTests.header + "phone: sync &")
        #expect(result.leftovers == [
            "line 7: 'phone: sync' did not complete: still running when the run ended",
        ], "the launch at the start is no script action")
    }

    @Test func aCleanRunHasNoLeftovers() {
        let result = Self.run(RuntimeRobustnessTests.header + """
            phone: insert Note n1 title="one"
            settle
            """)
        #expect(result.leftoverAccount == Leftovers())
        #expect(result.leftoverAccount.isEmpty)
    }
}

/// Issue 11, item 6: a read-only participant's refused edit, then the owner edits the record.
@Suite struct RefusedEditTests {
    static func source(after refusal: String) throws -> String {
        let bundled = try TestSupport.read("Scenarios/sharing/read-only-participant-is-refused.scenario")
        let lines = bundled.split(separator: "\n", omittingEmptySubsequences: false)
        let setup = lines.prefix { !$0.hasPrefix("tablet: update") }.joined(separator: "\n")
        return setup + "\ntablet: update n1 title=\"Pasta (Bob's)\"\nsettle\n" + refusal
    }

    @Test func settleEndsWhileTheRefusedEditWaitsItsHour() throws {
        let result = RuntimeRobustnessTests.run(try Self.source(after: """
            phone: update n1 title="Pasta al forno"
            settle
            expect cloud alice: n1 title="Pasta al forno"
            expect tablet: state error(incompleteUpload)
            """))
        #expect(result.passed, "\(result.failure?.description ?? "") \(result.expectations)")
        #expect(result.endTime < .seconds(60), "settle did not wait for the hourly retry")
        let refusals = result.trace.events.filter { $0.kind == "access.refused" }
        #expect(refusals.count == 1, "the refused edit was not retried")
        #expect(result.leftoverAccount.setAside.map(\.rejected) == [["n1 (permissionFailure)"]])
    }

    /// A settle that begins when the retry is less than an hour away does not wait for it
    /// either: a timer armed for an hour or more is never waited for (waiting would run into
    /// the settle's own one-hour bound). `wait 1h` reaches it, and it is refused again.
    @Test func aLaterSettleDoesNotWaitForTheHourlyRetry() throws {
        let later = RuntimeRobustnessTests.run(try Self.source(after: """
            wait 1s
            settle
            expect tablet: state error(incompleteUpload)
            """))
        #expect(later.passed, "\(later.failure?.description ?? "")")
        #expect(later.trace.events.filter { $0.kind == "access.refused" }.count == 1)
        #expect(later.endTime < .seconds(60), "settle waited for the hourly retry")
        let afterAnHour = RuntimeRobustnessTests.run(try Self.source(after: """
            wait 1h
            settle
            expect tablet: state error(incompleteUpload)
            """))
        #expect(afterAnHour.passed, "\(afterAnHour.failure?.description ?? "")")
        #expect(afterAnHour.trace.events.filter { $0.kind == "access.refused" }.count == 2)
    }
}

/// A store's refusal names the model as the scenario does, by its label.
@Suite struct StoreRefusalMessageTests {
    @Test func aDenyRuleNamesTheLabelNotTheStoresIdentifier() {
        let source = """
            scenario "t"
            entity Folder {
              name: String = ""
              notes: [Note] inverse(folder) deny
            }
            entity Note {
              title: String = ""
              folder: Folder?
            }
            account alice
            device phone on alice
            phone: insert Folder f1 name="F"
            phone: insert Note n1 title="x" folder=f1
            phone: delete f1
            """
        let result = RuntimeRobustnessTests.run(source)
        #expect(result.failure?.message
            == "the store refused the save: 'f1' cannot be deleted: relationship 'notes' denies it")
    }
}
