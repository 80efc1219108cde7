import Engines
import Harness
import Kernel
import Scenario
import SyncContract
import Testing
import TestSupport

/// The SyncLab additions of issue 42 in a run: `in zone` and `raw` read the record as stored,
/// `expect failure` lets a story go on past a failure it means, `put-record` and
/// `serve-old-version` put server data in place (docs/FORMAT.md).
@Suite struct ServerDataWorldTests {
    static func story(_ timeline: String, engine: String = "sds") -> String {
        """
        scenario "Server data"
        seed 8
        engine \(engine)
        entity Note {
          title: String = ""
          pinned: Bool = false
        }
        account alice
        device phone on alice
        device laptop on alice
        settle
        phone: insert Note n1 title="Draft" pinned=true
        settle
        \(timeline)
        """
    }

    static func run(_ source: String, engine: String = "sds") -> RunResult {
        let checked = ScenarioChecker.check(
            source: source, file: "server-data.scenario",
            options: EngineRegistry.bundled.validationOptions())
        #expect(!checked.hasErrors, "\(checked.diagnostics.map(\.rendered))")
        var options = RunOptions(engines: .bundled)
        options.engine = engine
        return ScenarioRunner.run(checked.scenario, source: source, options: options)
    }

    static func failed(_ result: RunResult) -> [String] {
        result.expectations.filter { !$0.passed }.map { "\($0.line): \($0.found)" }
    }

    @Test func rawAndZoneReadTheRecordAsStored() {
        let result = Self.run(Self.story("""
            expect cloud alice: n1 in zone SwiftDataSync
            expect cloud alice: n1 raw title="Draft" pinned=1 body=nil
            expect cloud alice: n1 in zone Other
            expect cloud alice: n1 raw title="Final" pinned=0
            """))
        #expect(result.failure == nil)
        #expect(Self.failed(result) == [
            "16: in zone \"SwiftDataSync\"", "17: n1 title=\"Draft\" pinned=1",
        ])
    }

    @Test func mirrorStoresCoreDataFields() {
        let result = Self.run(Self.story("""
            expect cloud alice: n1 in zone "com.apple.coredata.cloudkit.zone"
            expect cloud alice: n1 raw CD_entityName="Note" CD_title="Draft" CD_pinned=1 title=nil
            """, engine: "mirror"), engine: "mirror")
        #expect(result.passed, "\(Self.failed(result)) \(String(describing: result.failure))")
    }

    @Test func anExpectedFailureLetsTheRunGoOn() {
        let result = Self.run(Self.story("""
            laptop: offline
            phone: insert Note n2 title="New"
            laptop: update n2 title="Edited"
            expect failure "n2"
            settle
            expect phone: n2 title="New"
            """))
        #expect(result.failure == nil)
        #expect(result.passed, "\(Self.failed(result))")
        #expect(result.trace.events.contains { $0.kind == "run.failure-expected" })
    }

    @Test func anUnexpectedOrMissingFailureStillFails() {
        let other = Self.run(Self.story("""
            laptop: offline
            phone: insert Note n2 title="New"
            laptop: update n2 title="Edited"
            expect failure "something else"
            settle
            """))
        #expect(other.failure != nil, "a failure no line expects ends the run")
        #expect(Self.failed(other).count == 1)
        let none = Self.run(Self.story("""
            phone: update n1 title="Final"
            expect failure "n1"
            """))
        #expect(none.failure == nil)
        #expect(Self.failed(none) == ["15: no runtime failure and no failed action"])
    }

    @Test func putRecordStoresWhatIsWritten() {
        let result = Self.run(Self.story("""
            cloud: put-record alice Gadget "gadget-1" color="red" size=3 ratio=0.5 blob=hex"00ff"
            settle
            """))
        #expect(result.failure == nil)
        let notes = result.trace.events.filter { $0.kind == "record.server-written" }
        #expect(notes.count == 1)
        #expect(notes[0].string("recordType") == "Gadget")
    }

    @Test func serveOldVersionServesThePreviousVersionOnce() {
        let result = Self.run(Self.story("""
            phone: update n1 title="Final"
            settle
            cloud: serve-old-version alice n1
            laptop: sync
            settle
            laptop: sync
            settle
            """))
        #expect(result.failure == nil)
        #expect(result.trace.events.filter { $0.kind == "record.old-version-served" }.count == 1)
    }

    @Test func serveOldVersionOfARecordSavedOnceFails() {
        let result = Self.run(Self.story("cloud: serve-old-version alice n1\n"))
        #expect(result.failure?.message.contains("has no older version") == true)
    }
}

/// `expect warning "TEXT"` (a SyncLab addition, issue 42): a warning `synclab check` gives
/// the file on the run's engine, matched by substring.
@Suite struct ExpectedWarningWorldTests {
    static let raceOnNaive = """
        scenario "A save at 0 s"
        seed 1
        engine naive
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        phone: insert Note n1 title="A"
        settle
        expect warning "races the devices' launch"
        """

    @Test func aWarningOfTheRunsEngineHolds() {
        let result = ServerDataWorldTests.run(Self.raceOnNaive, engine: "naive")
        #expect(ServerDataWorldTests.failed(result) == [])
    }

    @Test func aWarningThatDoesNotHappenFails() {
        let result = ServerDataWorldTests.run(Self.raceOnNaive, engine: "sds")
        #expect(ServerDataWorldTests.failed(result) == ["11: no warning"])
    }
}
