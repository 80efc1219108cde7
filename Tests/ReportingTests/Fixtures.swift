import Harness
import Kernel
import Reporting
import Scenario

/// A hand-built scenario, source, trace and final state that exercise every kind of event a
/// report draws (and two kinds it has never heard of), independent of the engine.
enum Fixtures {
    static let path = "Scenarios/fixtures/hand-built.scenario"
    static let record = "6F1C2A9E-0000-4000-8000-00000000AB01"
    static let unlabelled = "D10B152A-E7FC-6DBC-49CE-DCD5D6C55033"

    static let source = """
    scenario "Fixture: a note | reaches *the* laptop"
    about "Hand-built run for golden tests; <b>not</b> from the engine & friends."
    seed 7

    entity Note {
      title: String = ""
      body: String?
    }

    account alice
    device phone on alice
    device laptop on alice latency 300ms
    cloud push drop 10%

    phone: insert Note n1 title="A; #1 \\"quoted\\"" body="milk"   # a comment
    when laptop reaches download.page.saved: phone: kill
    cloud: throttle alice for 30s
    settle
    expect laptop: n1 title="A; #1 \\"quoted\\""
    expect converged
    """

    static func at(_ line: Int, _ column: Int = 1) -> SourceLocation {
        SourceLocation(line: line, column: column)
    }

    static func located<T: Sendable>(_ value: T, _ line: Int) -> Located<T> {
        Located(value, at: at(line))
    }

    static var scenario: ScenarioFile {
        ScenarioFile(
            file: path,
            header: ScenarioHeader(
                title: located("Fixture: a note | reaches *the* laptop", 1),
                about: [located("Hand-built run for golden tests; <b>not</b> from the engine "
                    + "& friends.", 2)],
                seed: located(UInt64(7), 3)),
            entities: [EntityDeclaration(
                name: located("Note", 5),
                attributes: [
                    AttributeDeclaration(
                        name: located("title", 6), type: .string,
                        defaultValue: Value(.string(""), text: "\"\"", location: at(6)),
                        location: at(6)),
                    AttributeDeclaration(
                        name: located("body", 7), type: .string, isOptional: true,
                        location: at(7)),
                ],
                location: at(5))],
            accounts: [AccountDeclaration(name: located("alice", 10), location: at(10))],
            devices: [
                DeviceDeclaration(
                    name: located("phone", 11), account: located("alice", 11), location: at(11)),
                DeviceDeclaration(
                    name: located("laptop", 12), account: located("alice", 12),
                    latency: located(.fixed(TimeSpan(microseconds: 300_000)), 12),
                    location: at(12)),
            ],
            cloudSettings: [CloudSetting(
                kind: .pushDrop(Probability(partsPerMillion: 100_000)), location: at(13))])
    }

    static func event(
        _ time: Int64, _ actor: String, _ kind: String, _ details: [TraceField] = [],
        rules: [String] = []
    ) -> TraceEvent {
        TraceEvent(time: SimTime(microseconds: time), actor: actor, kind: kind,
                   details: details, rules: rules)
    }

    static func field(_ key: String, _ value: TraceValue) -> TraceField {
        TraceField(key, value)
    }

    static var events: [TraceEvent] {
        [
            event(0, "script", "run.start", [field("file", .string(path)), field("seed", "7")]),
            event(0, "phone", "app.launched", [field("incarnation", 1)]),
            event(0, "laptop", "app.launched", [field("incarnation", 1)]),
            event(0, "phone", "request.sent", [field("request", "r1"),
                field("kind", "accountStatus"), field("arrives", 100_000)]),
            event(0, "laptop", "request.sent", [field("request", "r1"),
                field("kind", "accountStatus"), field("arrives", 300_000)]),
            event(0, "script", "action", [field("line", 15), field("device", "phone"),
                field("action", "insert")]),
            event(0, "phone", "store.saved"),
            event(0, "phone", "change.recorded", [field("model", .string(record)),
                field("change", "insert")], rules: ["SYNC-1"]),
            event(100_000, "cloud", "request.handled", [field("device", "phone"),
                field("request", "r1"), field("kind", "accountStatus")]),
            event(200_000, "phone", "response.received", [field("request", "r1")]),
            event(200_000, "phone", "account.checked", [field("account", "alice")],
                  rules: ["HDO-2"]),
            event(200_000, "phone", "request.sent", [field("request", "r2"),
                field("kind", "modifyRecords"), field("arrives", 300_000),
                field("saves", .list([.string(record)])), field("deletes", .list([])),
                field("policy", "changedKeys")]),
            event(300_000, "cloud", "request.handled", [field("device", "laptop"),
                field("request", "r1"), field("kind", "accountStatus")]),
            event(300_000, "cloud", "request.handled", [field("device", "phone"),
                field("request", "r2"), field("kind", "modifyRecords"),
                field("results", .list([.string("saved \(record)")]))]),
            event(300_000, "cloud", "record.saved", [field("recordName", .string(record))]),
            event(300_000, "cloud", "push.sent", [field("device", "laptop"),
                field("arrives", 1_300_000)]),
            event(300_000, "cloud", "future.cloud-thing", [field("x", 1)]),
            event(400_000, "phone", "response.received", [field("request", "r2"),
                field("results", .list([.string("saved \(record)")]))]),
            event(600_000, "laptop", "response.received", [field("request", "r1")]),
            event(600_000, "laptop", "account.checked", [field("account", "alice")],
                  rules: ["HDO-2"]),
            event(1_300_000, "laptop", "push.received"),
            event(1_300_000, "laptop", "request.sent", [field("request", "r2"),
                field("kind", "fetchZoneChanges"), field("arrives", 1_600_000),
                field("token", 0)]),
            event(1_600_000, "cloud", "request.handled", [field("device", "laptop"),
                field("request", "r2"), field("kind", "fetchZoneChanges"),
                field("records", .list([.string(record)])), field("token", 1),
                field("moreComing", false)]),
            event(1_800_000, "phone", "request.sent", [field("request", "r3"),
                field("kind", "modifyRecords"), field("arrives", 1_850_000),
                field("saves", .list([.string(unlabelled)]))]),
            event(1_850_000, "cloud", "request.handled", [field("device", "phone"),
                field("request", "r3"), field("kind", "modifyRecords")]),
            event(1_900_000, "laptop", "response.received", [field("request", "r2"),
                field("records", .list([.string(record)])), field("token", 1),
                field("moreComing", false)]),
            event(1_900_000, "laptop", "download.page.saved", [field("records", 1),
                field("deletions", 0)], rules: ["DL-1"]),
            event(1_900_000, "laptop", "future.decision", [field("note", "x<y & z; #1")],
                  rules: ["NEW-1"]),
            event(1_900_000, "laptop", "probe", [field("point", "download.page.saved")]),
            event(1_900_000, "script", "trigger.fired", [field("line", 16),
                field("probe", "download.page.saved"), field("device", "laptop")]),
            event(1_900_000, "script", "action", [field("line", 16), field("device", "phone"),
                field("action", "kill")]),
            event(1_900_000, "phone", "app.killed"),
            event(2_000_000, "script", "cloud.action", [field("line", 17),
                field("action", "throttle")]),
            event(2_100_000, "phone", "response.lost", [field("request", "r3")]),
            event(2_200_000, "laptop", "network.offline"),
            event(2_200_000, "laptop", "request.failed", [field("request", "r3"),
                field("kind", "fetchZoneChanges"), field("error", "networkUnavailable")]),
            event(2_200_000, "laptop", "response.received", [field("request", "r3"),
                field("error", "networkUnavailable (3): the device is offline")]),
            event(2_500_000, "script", "expectation", [field("line", 19),
                field("passed", true), field("found", "")]),
            event(2_500_000, "script", "expectation", [field("line", 20),
                field("passed", false), field("found", .string("phone lacks \(record)"))]),
            event(2_500_000, "script", "run.end",
                  [field("leftovers", .list(["phone: not running"]))]),
        ]
    }

    static var run: ReportedRun {
        ReportedRun(
            seed: 7,
            events: events,
            expectations: [
                ExpectationResult(
                    line: 19, wanted: "expect laptop: n1 title=\"A; #1 \\\"quoted\\\"\"",
                    found: "", passed: true),
                ExpectationResult(line: 20, wanted: "expect converged",
                                  found: "phone lacks \(record) | <missing>", passed: false),
            ],
            leftovers: ["phone: not running"],
            endTime: SimTime(microseconds: 2_500_000))
    }

    static var finalState: FinalState {
        let title = FinalState.Field(key: "title", value: "\"A; #1 \\\"quoted\\\"\"")
        let body = FinalState.Field(key: "body", value: "\"milk | <b>\"")
        return FinalState(
            devices: [
                FinalState.DeviceTable(name: "phone", account: "alice", status: ["not running"],
                                       models: [FinalState.Row(entity: "Note", name: record,
                                                               fields: [body, title])]),
                FinalState.DeviceTable(name: "laptop", account: "alice", models: [
                    FinalState.Row(entity: "Note", name: unlabelled, fields: [title]),
                    FinalState.Row(entity: "Note", name: record, fields: [body, title]),
                    FinalState.Row(entity: "Draft", name: "m7",
                                   fields: [FinalState.Field(key: "text", value: "\"x\"")]),
                ]),
            ],
            accounts: [FinalState.AccountTable(account: "alice", records: [
                FinalState.Row(entity: "Note", name: record, fields: [body, title]),
            ])],
            labels: [FinalState.LabelBinding(label: "n1", recordName: record)])
    }

    static let ruleTexts = [
        "SYNC-1": "Saves of the observed store are recorded as pending changes.",
        "HDO-2": "After each launch it is false until the account was checked.",
        "DL-1": "Downloads are saved page by page, each page with its change token.",
    ]

    static func report(limits: DiagramLimits = .standard) -> ScenarioReport {
        ScenarioReport(
            path: path, scenario: scenario, source: source, run: run,
            finalState: finalState, ruleTexts: ruleTexts, limits: limits)
    }
}
