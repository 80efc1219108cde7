import Scenario
import Testing

/// Errors of the validation pass: names, labels, values, time order, transactions.
@Suite struct ValidationErrorTests {
    static let setup = header + """
        entity Note {
          title: String = ""
          body: String?
          pinned: Bool = false
          rating: Int = 0
          score: Double?
          due: Date?
          token: UUID?
          link: URL?
          photo: Data? asset
          folder: Folder? parent
        }
        entity Folder {
          name: String = ""
          notes: [Note] inverse(folder) cascade
          sharable
        }
        entity Draft {
          title: String
          body: String?
          count: Int
        }
        account alice
        account bob
        device phone on alice
        device laptop on alice
        phone: insert Note n1 title="A"
        phone: insert Folder f1

        """

    struct Case: Sendable, CustomTestStringConvertible {
        var timeline: String
        var expected: [ExpectedDiagnostic]
        var source: String { ValidationErrorTests.setup + timeline + "\n" }
        var testDescription: String { timeline }

        init(_ timeline: String, _ expected: ExpectedDiagnostic...) {
            self.timeline = timeline
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("1️⃣lapotp: sync",
            .init("1️⃣", "unknown device 'lapotp'; did you mean 'laptop'?", id: "unknown-device")),
        Case("phone: sign-in 1️⃣alise",
            .init("1️⃣", "unknown account 'alise'; did you mean 'alice'?", id: "unknown-account")),
        Case("phone: insert 1️⃣note n2",
            .init("1️⃣", "unknown entity 'note'; did you mean 'Note'?", id: "unknown-entity")),
        Case("phone: update n1 1️⃣titel=\"B\"",
            .init("1️⃣", "entity 'Note' has no property 'titel'; did you mean 'title'?",
                id: "unknown-property")),
        Case("phone: update 1️⃣n2 title=\"B\"",
            .init("1️⃣", "label 'n2' is not bound by an earlier 'insert'; did you mean 'n1'?",
                id: "unknown-label")),
        Case("phone: insert Note 1️⃣n1",
            .init("1️⃣", "label 'n1' is already bound", id: "duplicate-label")),
        Case("phone: insert Note 1️⃣count",
            .init("1️⃣", "'count' is a keyword and cannot be a label", id: "reserved-name")),
        Case("phone: update n1 title=\"B\" 1️⃣title=\"C\"",
            .init("1️⃣", "duplicate key 'title'", id: "duplicate-key")),
        Case("phone: update n1 rating=1️⃣\"3\"",
            .init("1️⃣", "property 'rating' of type 'Int' needs a whole number, found '\"3\"'",
                id: "type-mismatch")),
        Case("phone: update n1 rating=1️⃣3.5",
            .init("1️⃣", "property 'rating' of type 'Int' needs a whole number, found '3.5'")),
        Case("phone: update n1 title=1️⃣hello",
            .init("1️⃣", "property 'title' of type 'String' needs a string in quotes or "
                + "'text(SIZE)', found 'hello'; did you mean '\"hello\"'?")),
        Case("phone: update n1 pinned=1️⃣1",
            .init("1️⃣", "property 'pinned' of type 'Bool' needs 'true' or 'false', found '1'")),
        Case("phone: update n1 due=1️⃣\"2026-02-30T10:00:00Z\"",
            .init("1️⃣", "property 'due' of type 'Date' needs a date such as "
                + "'\"2026-01-01T10:00:00.123Z\"', found '\"2026-02-30T10:00:00Z\"'")),
        Case("phone: update n1 token=1️⃣\"not-a-uuid\"",
            .init("1️⃣", "property 'token' of type 'UUID' needs a UUID such as "
                + "'\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"', found '\"not-a-uuid\"'")),
        Case("phone: update n1 link=1️⃣\"no scheme\"",
            .init("1️⃣", "property 'link' of type 'URL' needs a URL such as "
                + "'\"https://example.org\"', found '\"no scheme\"'")),
        Case("phone: update n1 photo=1️⃣\"00ff\"",
            .init("1️⃣", "property 'photo' of type 'Data' needs 'hex\"00ff\"' or 'bytes(SIZE)', "
                + "found '\"00ff\"'")),
        Case("phone: update n1 title=1️⃣nil",
            .init("1️⃣", "'nil' is not allowed: property 'title' is not optional",
                id: "nil-not-optional")),
        Case("expect phone: n1 title=1️⃣nil",
            .init("1️⃣", "'nil' is not allowed: property 'title' is not optional")),
        Case("expect cloud alice: n1 title=nil"),
        Case("phone: update n1 folder=1️⃣n1",
            .init("1️⃣", "label 'n1' is a 'Note', but 'folder' holds a 'Folder'",
                id: "label-type-mismatch")),
        Case("phone: update n1 folder=1️⃣\"f1\"",
            .init("1️⃣", "relationship 'folder' needs a label of a 'Folder' or 'nil', "
                + "found '\"f1\"'")),
        Case("phone: update f1 notes=1️⃣n1",
            .init("1️⃣", "to-many relationship 'notes' cannot be set; set 'folder' on the other "
                + "side", id: "to-many-assignment")),
        Case("phone: share 1️⃣n1 with bob read-only",
            .init("1️⃣", "label 'n1' is a 'Note', which is not 'sharable'", id: "not-sharable")),
        Case("phone: share f1 with bob 1️⃣read-all",
            .init("1️⃣", "expected 'read-write' or 'read-only', found 'read-all'; did you mean "
                + "'read-only'?")),
        Case("phone: share f1 public 1️⃣read-olny",
            .init("1️⃣", "expected 'none', 'read-only' or 'read-write', found 'read-olny'; did "
                + "you mean 'read-only'?")),
        Case("phone: share 1️⃣n1 public read-only",
            .init("1️⃣", "label 'n1' is a 'Note', which is not 'sharable'", id: "not-sharable")),
        Case("phone: share f1 with bob read-write 1️⃣admin",
            .init("1️⃣", "unexpected 'admin' at end of statement")),
        Case("phone: batch-delete Note where 1️⃣pinned=\"no\"".replacingOccurrences(
            of: "1️⃣pinned=\"no\"", with: "pinned=1️⃣\"no\""),
            .init("1️⃣", "property 'pinned' of type 'Bool' needs 'true' or 'false', found "
                + "'\"no\"'")),
        Case("expect phone: count 1️⃣Notes = 1",
            .init("1️⃣", "unknown entity 'Notes'; did you mean 'Note'?")),
        Case("expect cloud 1️⃣alce: no n1",
            .init("1️⃣", "unknown account 'alce'; did you mean 'alice'?")),
        Case("expect 1️⃣phon: pending 0",
            .init("1️⃣", "unknown device 'phon'; did you mean 'phone'?")),
        Case("expect fired 1️⃣sync-4",
            .init("1️⃣", "'sync-4' is not a rule ID such as 'SYNC-4'; did you mean 'SYNC-4'?",
                id: "invalid-rule-id")),
        Case("when phone reaches 1️⃣download.don: phone: kill",
            .init("1️⃣", "unknown probe point 'download.don'; did you mean 'download.done'?",
                id: "unknown-probe-point")),
        Case("when phone reaches download.done 1️⃣0: phone: kill",
            .init("1️⃣", "number '0' must be at least 1")),
        Case("wait 10s\nat 1️⃣5s",
            .init("1️⃣", "time '5s' is before '10s', the earliest the script can be at here",
                id: "time-goes-backwards")),
        Case("at 10s\nwait 1s\nat 1️⃣10.5s",
            .init("1️⃣", "time '10.5s' is before '11s', the earliest the script can be at here")),
        Case("at 10s\nsettle\nat 10s"),
        Case("phone: begin\n1️⃣phone: begin",
            .init("1️⃣", "'begin' on 'phone' while its transaction is still open",
                id: "nested-transaction")),
        Case("1️⃣phone: save",
            .init("1️⃣", "'save' on 'phone' without an open 'begin'", id: "no-open-transaction")),
        Case("phone: begin\nphone: kill\n1️⃣phone: rollback",
            .init("1️⃣", "'rollback' on 'phone' without an open 'begin'")),
        Case("phone: begin\nlaptop: begin\nphone: save\nlaptop: rollback"),
        Case("when phone reaches sync.done: phone: insert Note n9\nexpect phone: n9 title=\"\""),
        Case("cloud: reject 1️⃣n3 with serverRejectedRequest",
            .init("1️⃣", "label 'n3' is not bound by an earlier 'insert'; did you mean 'n1'?")),
        Case("phone: insert Folder f2\nphone: insert Draft 1️⃣d1 body=\"x\"",
            .init("1️⃣", "insert of 'd1' must set 'title', 'count': neither optional nor "
                + "defaulted", id: "missing-value")),
        Case("cloud: throttle 1️⃣bobby for 1s",
            .init("1️⃣", "unknown account 'bobby'; did you mean 'bob'?")),
    ]

    @Test(arguments: cases)
    func validationError(_ testCase: Case) {
        assertDiagnostics(testCase.source, testCase.expected)
    }

    @Test func setupDuplicatesAndUnknownAccount() {
        assertDiagnostics(
            header + """
            account alice
            account 1️⃣alice
            device phone on alice
            device 2️⃣phone on 3️⃣bob
            cloud latency 1s
            4️⃣cloud latency 2s
            entity Note {
              title: String?
              5️⃣title: Int?
            }
            entity 6️⃣Note {
            }
            """,
            [
                .init("1️⃣", "duplicate account 'alice'", id: "duplicate-account"),
                .init("2️⃣", "duplicate device 'phone'", id: "duplicate-device"),
                .init("3️⃣", "unknown account 'bob'"),
                .init("4️⃣", "'cloud latency' is set twice in the setup", id: "duplicate-setting"),
                .init("5️⃣", "duplicate property 'title'", id: "duplicate-property"),
                .init("6️⃣", "duplicate entity 'Note'", id: "duplicate-entity"),
            ])
    }

    @Test func knownProbePointsAndRulesAreParameters() {
        let options = ValidationOptions(
            probePoints: ValidationOptions.contractProbePoints + ["history.read"],
            ruleIDs: ["SYNC-4", "LIM-1"], engines: ["sds", "naive"])
        assertDiagnostics(
            header + """
            engine 1️⃣nave
            account alice
            device phone on alice
            when phone reaches history.read: phone: kill
            expect fired SYNC-4
            expect fired 2️⃣SYNC-44
            """,
            [
                .init("1️⃣", "unknown engine 'nave'; did you mean 'naive'?", id: "unknown-engine"),
                .init("2️⃣", "unknown rule 'SYNC-44'; did you mean 'SYNC-4'?", id: "unknown-rule"),
            ],
            options: options)
    }

    @Test func unresolvedPropertyIsReportedOnce() {
        assertDiagnostics(
            header + """
            entity Note {
              title: 1️⃣Strin = ""
            }
            account alice
            device phone on alice
            phone: insert Note n1 title=3
            """,
            [
                .init("1️⃣", "unknown type 'Strin'; types are 'String', 'Int', 'Double', 'Bool', "
                    + "'Date', 'UUID', 'URL', 'Data' and declared entities; did you mean "
                    + "'String'?"),
            ])
    }

    @Test func defaultsMustFitTheirType() {
        assertDiagnostics(
            header + """
            entity Note {
              title: String = 1️⃣3
              count: Int = 2️⃣nil
              due: Date? = "2026-01-01T00:00:00Z"
              body: String? = nil
            }
            """,
            [
                .init("1️⃣", "property 'title' of type 'String' needs a string in quotes or "
                    + "'text(SIZE)', found '3'"),
                .init("2️⃣", "'nil' is not allowed: property 'count' is not optional"),
            ])
    }

    @Test func renderedFormHasFileLineColumnAndSuggestion() {
        let result = ScenarioChecker.check(
            source: header + "account alice\ndevice laptop on alice\nlapotp: sync\n",
            file: "Scenarios/x.scenario")
        #expect(result.diagnostics.map(\.rendered) == [
            "Scenarios/x.scenario:4:1: error: unknown device 'lapotp'; did you mean 'laptop'?",
        ])
        #expect(result.hasErrors)
    }
}
