import Scenario
import Testing

/// Syntax errors: each case an input with markers and the diagnostics expected at them.
@Suite struct SyntaxErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var source: String
        var expected: [ExpectedDiagnostic]
        var testDescription: String { source }

        init(_ source: String, _ expected: ExpectedDiagnostic...) {
            self.source = source
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("1️⃣seed 3\n",
            .init("1️⃣", "missing 'scenario \"title\"' statement", id: "missing-title")),
        Case(header + "1️⃣devic phone\n",
            .init("1️⃣", "unknown statement 'devic'; did you mean 'device'?",
                id: "unknown-statement")),
        Case(header + "1️⃣{\n", .init("1️⃣", "expected a statement, found '{'", id: "expected")),
        Case(header + "1️⃣scenario \"again\"\n",
            .init("1️⃣", "second 'scenario' statement", id: "duplicate-statement")),
        Case(header + "seed 1️⃣-1\n",
            .init("1️⃣", "seed '-1' must be a whole number from 0 to 18446744073709551615")),
        Case(header + "seed 1️⃣18446744073709551616\n",
            .init("1️⃣", "seed '18446744073709551616' must be a whole number from 0 to "
                + "18446744073709551615", id: "invalid-seed")),
        Case(header + "account alice\ndevice phone on alice\nphone: sync\n1️⃣device tablet\n",
            .init("1️⃣", "'device' belongs to the setup, which must come before the timeline",
                id: "setup-after-timeline")),
        Case(header + "settle\n1️⃣cloud latency 2s\n",
            .init("1️⃣", "'cloud' belongs to the setup, which must come before the timeline; "
                + "did you mean 'cloud: latency'?")),
        Case(header + "account alice\ndevice phone on alice\nphone1️⃣ sync\n",
            .init("1️⃣", "expected ':' after device 'phone'", id: "missing-colon")),
        Case(header + "account alice\ndevice phone on alice\nphone: 1️⃣synk\n",
            .init("1️⃣", "unknown device action 'synk'; did you mean 'sync'?",
                id: "unknown-device-action")),
        Case(header + "account alice\ndevice phone on alice\nphone: 1️⃣\n",
            .init("1️⃣", "expected a device action, found end of line")),
        Case(header + "account alice\ndevice phone on alice\nphone: kill 1️⃣&\n",
            .init("1️⃣", "'&' cannot follow 'kill': only 'sync', 'launch', 'start', "
                + "'reset-sync-data' and 'initialize-schema' wait", id: "background-not-allowed")),
        Case(header + "account alice\ndevice phone on alice\nphone: sync 1️⃣now\n",
            .init("1️⃣", "unexpected 'now' at end of statement", id: "unexpected-token")),
        Case(header + "cloud: 1️⃣outrage for 1m\n",
            .init("1️⃣", "unknown cloud action 'outrage'; did you mean 'outage'?",
                id: "unknown-cloud-action")),
        Case(header + "cloud 1️⃣latensy 1s\n",
            .init("1️⃣", "unknown cloud setting 'latensy'; did you mean 'latency'?",
                id: "unknown-cloud-setting")),
        Case(header + "cloud: 1️⃣page-size 3\n",
            .init("1️⃣", "unknown cloud action 'page-size'", id: "unknown-cloud-action")),
        Case(header + "cloud push drop 1️⃣101%\n",
            .init("1️⃣", "percentage '101%' must be from '0%' to '100%' with at most 4 decimals",
                id: "invalid-percentage")),
        Case(header + "cloud push drop 1️⃣0.00001%\n",
            .init("1️⃣", "percentage '0.00001%' must be from '0%' to '100%' with at most 4 "
                + "decimals")),
        Case(header + "cloud push drop 1️⃣10\n",
            .init("1️⃣", "expected a percentage such as '10%', found '10'", id: "expected")),
        Case(header + "cloud page-size 1️⃣0\n",
            .init("1️⃣", "number '0' must be at least 1", id: "number-too-small")),
        Case(header + "cloud environment 1️⃣prod\n",
            .init("1️⃣", "expected 'development' or 'production', found 'prod'; did you mean "
                + "'production'?")),
        Case(header + "cloud latency 1️⃣300ms..50ms\n",
            .init("1️⃣", "range '300ms..50ms' has its lower bound above its upper bound",
                id: "invalid-range")),
        Case(header + "wait 1️⃣5\n",
            .init("1️⃣", "duration '5' needs a unit: 'us', 'ms', 's', 'm', 'h' or 'd'; did you mean "
                + "'5s'?", id: "invalid-duration")),
        Case(header + "wait 1️⃣5sec\n",
            .init("1️⃣", "unknown unit in duration '5sec'; units are 'us', 'ms', 's', 'm', 'h' "
                + "and 'd'; did you mean '5s'?")),
        Case(header + "wait 1️⃣-5s\n", .init("1️⃣", "duration '-5s' must not be negative")),
        Case(header + "wait 1️⃣0.5us\n",
            .init("1️⃣", "duration '0.5us' is not a whole number of microseconds")),
        Case(header + "wait 1️⃣9999999999999h\n",
            .init("1️⃣", "duration '9999999999999h' is too large; the largest is "
                + "'9223372036854775807us' (2^63-1 microseconds, about 292,000 years)",
                id: "number-too-large")),
        Case(header + "wait until phone 1️⃣busy\n",
            .init("1️⃣", "expected 'idle', found 'busy'")),
        Case(header + "1️⃣\"open\n",
            .init("1️⃣", "string has no closing '\"' on its line", id: "unterminated-string")),
        Case(header + "about \"a1️⃣\\qb\"\n",
            .init("1️⃣", "unknown escape '\\q'; strings allow '\\\"', '\\\\', '\\n' and '\\t'",
                id: "unknown-escape")),
        Case(header + "1️⃣é\n2️⃣\u{1}\n",
            .init("1️⃣", "unexpected character 'é'", id: "unexpected-character"),
            .init("2️⃣", "unexpected character 'U+0001'")),
        Case(header + "entity Note 1️⃣{\n  title: String = \"\"\naccount alice\n",
            .init("1️⃣", "entity 'Note' has no closing '}'", id: "missing-closing-brace")),
        Case(header + "entity Note 1️⃣{\n  title: String = \"\"\n",
            .init("1️⃣", "entity 'Note' has no closing '}'")),
        Case(header + "entity Note {\n  1️⃣title String\n}\n",
            .init("1️⃣", "unknown entity member 'title'; expected 'name: Type', 'sync', "
                + "'identity' or 'sharable'", id: "unknown-entity-member")),
        Case(header + "entity Note {\n  title: String 1️⃣assset\n}\n",
            .init("1️⃣", "unknown property modifier 'assset'; did you mean 'asset'?",
                id: "unknown-modifier")),
        Case(header + "entity Note {\n  title: String? asset 1️⃣asset\n}\n",
            .init("1️⃣", "'asset' is given twice", id: "duplicate-clause")),
        Case(header + "entity Note {\n  sync 1️⃣some\n}\n",
            .init("1️⃣", "expected 'all', 'none', 'only(...)' or 'except(...)', found 'some'; "
                + "did you mean 'none'?")),
        Case(header + "entity Note {\n  title: 1️⃣Strin\n}\n",
            .init("1️⃣", "unknown type 'Strin'; types are 'String', 'Int', 'Double', 'Bool', "
                + "'Date', 'UUID', 'URL', 'Data' and declared entities; did you mean 'String'?",
                id: "unknown-type")),
        Case(header + "entity Note {\n  tags: [1️⃣String]\n}\n",
            .init("1️⃣", "'[String]' is not a type: a to-many relationship names an entity",
                id: "to-many-attribute")),
        Case(header + "entity Note {\n  folder: 1️⃣Folder\n}\nentity Folder {\n}\n",
            .init("1️⃣", "to-one relationship 'folder' must be optional, as CloudKit requires; "
                + "did you mean 'Folder?'?", id: "relationship-not-optional")),
        Case(header + "entity Note {\n  count: Int 1️⃣asset\n}\n",
            .init("1️⃣", "'asset' applies to 'Data' and 'String' attributes, and 'count' is 'Int'",
                id: "misplaced-modifier")),
        Case(header + "entity Note {\n  count: Int? 1️⃣parent\n}\n",
            .init("1️⃣", "'parent' applies to relationships, and 'count' is an attribute")),
        Case(header + "entity Note {\n  notes: [Note] 1️⃣parent\n}\n",
            .init("1️⃣", "'parent' applies to to-one relationships, and 'notes' is to-many")),
        Case(header + "entity Note {\n  next: Note? = 1️⃣nil\n}\n",
            .init("1️⃣", "relationship 'next' cannot have a default value")),
        Case(header + "entity 1️⃣wait {\n}\n",
            .init("1️⃣", "'wait' is a keyword and cannot be an entity name", id: "reserved-name")),
        Case(header + "device 1️⃣cloud\n",
            .init("1️⃣", "'cloud' is a keyword and cannot be a device name")),
        Case(header + "device phone 1️⃣of alice\n",
            .init("1️⃣", "unexpected 'of' at end of statement; did you mean 'on'?")),
        Case(header + "cloud: reject n1 with 1️⃣serverRejected\n",
            .init("1️⃣", "unknown CloudKit error 'serverRejected'; did you mean "
                + "'serverRejectedRequest'?", id: "unknown-error-code")),
        Case(header + "expect cloud alice: 1️⃣state idle\n",
            .init("1️⃣", "'state' is an expectation about a device, not the cloud",
                id: "device-only-expectation")),
        Case(header + "expect 1️⃣convergd\n",
            .init("1️⃣", "expected 'DEVICE:', 'cloud ACCOUNT:', 'converged' or 'fired', found "
                + "'convergd'")),
        Case(header + "expect not 1️⃣converge\n",
            .init("1️⃣", "expected 'fired' or 'converged', found 'converge'; did you mean "
                + "'converged'?")),
        Case(header + "entity Note {\n  data: Data = 1️⃣hex\"0f0\"\n}\n",
            .init("1️⃣", "hex data 'hex\"0f0\"' must be pairs of hex digits",
                id: "invalid-hex-data")),
        Case(header + "entity Note {\n  body: String = text(1️⃣3kb)\n}\n",
            .init("1️⃣", "size '3kb' must be a number of 'B', 'KB', 'MB' or 'GB'; did you mean "
                + "'3KB'?", id: "invalid-size")),
        Case(header + "entity Note {\n  n: Int = 1️⃣3s\n}\n",
            .init("1️⃣", "'3s' is not a value; values are numbers without units, strings, "
                + "'true', 'false', 'nil', labels, 'text(SIZE)', 'bytes(SIZE)' or 'hex\"...\"'",
                id: "invalid-value")),
        Case(header + "entity Note {\n  n: Int = 1️⃣99999999999999999999\n}\n",
            .init("1️⃣", "number '99999999999999999999' is too large; whole numbers go from "
                + "-9223372036854775808 to 9223372036854775807")),
    ]

    @Test(arguments: cases)
    func syntaxError(_ testCase: Case) {
        assertDiagnostics(testCase.source, testCase.expected)
    }

    /// The line that reveals a missing `}` is read as the statement it is.
    @Test func missingBraceKeepsTheNextStatement() {
        assertDiagnostics(
            header + """
            entity Note 1️⃣{
              title: String = ""
            account alice
            device phone on alice
            phone: insert Note n1 title="x"
            """,
            [.init("1️⃣", "entity 'Note' has no closing '}'")])
        let source = header + "entity Note { title: String?\ndevice phone\n"
        let result = ScenarioParser.parse(source: source, file: "t")
        #expect(result.scenario.devices.map(\.name.value) == ["phone"])
        #expect(result.scenario.entities.first?.attributes.map(\.name.value) == ["title"])
    }

    /// A bad line does not stop the rest: every line's error is reported in one pass.
    @Test func recoveryReportsEveryLine() {
        assertDiagnostics(
            header + """
            account alice
            device phone on alice
            phone: 1️⃣synk
            wait 2️⃣5
            phone: 3️⃣jump
            cloud: 4️⃣outrage for 1s
            phone: sync
            """,
            [
                .init("1️⃣", "unknown device action 'synk'; did you mean 'sync'?"),
                .init("2️⃣", "duration '5' needs a unit: 'us', 'ms', 's', 'm', 'h' or 'd'; "
                    + "did you mean '5s'?"),
                .init("3️⃣", "unknown device action 'jump'"),
                .init("4️⃣", "unknown cloud action 'outrage'; did you mean 'outage'?"),
            ])
    }
}
