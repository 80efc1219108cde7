import Scenario
import Testing

/// The tree the parser builds for timeline statements: what the harness lowers.
@Suite struct TimelineTreeTests {
    static let setup = header + """
        entity Note {
          title: String = ""
          folder: Folder?
        }
        entity Folder {
          name: String = ""
          sharable
        }
        account alice
        account bob
        device phone on alice latency 10ms..20ms
        device tablet

        """

    static func statement(_ line: String) throws -> TimelineStatement {
        let source = setup + "phone: insert Note n1\nphone: insert Folder f1\n" + line + "\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        return try #require(result.scenario.timeline.last)
    }

    static func location(_ line: Int, _ column: Int) -> Scenario.SourceLocation {
        .init(line: line, column: column)
    }

    @Test func setupDeclarations() throws {
        let result = ScenarioChecker.check(source: Self.setup, file: "t")
        #expect(result.diagnostics.isEmpty)
        let phone = try #require(result.scenario.device(named: "phone"))
        #expect(phone.account?.value == "alice")
        #expect(phone.latency?.value == .range(
            lower: TimeSpan(microseconds: 10_000), upper: TimeSpan(microseconds: 20_000)))
        #expect(result.scenario.device(named: "tablet")?.account == nil)
        #expect(result.scenario.account(named: "bob")?.location == Self.location(11, 1))
    }

    @Test func insertAndUpdateCarryValuesWithPositions() throws {
        let insert = try Self.statement("phone: insert Note n2 title=\"A\" folder=f1")
        guard case .deviceAction(let action) = insert.kind,
            case .insert(let entity, let label, let values) = action.action
        else { Issue.record("not an insert"); return }
        #expect(entity.value == "Note" && label.value == "n2")
        #expect(values.map(\.key.value) == ["title", "folder"])
        #expect(values.map(\.value.literal) == [.string("A"), .label("f1")])
        #expect(action.device.value == "phone" && !action.runsInBackground)
        #expect(insert.line == 16 && insert.location == Self.location(16, 1))
        #expect(values.first?.value.location == Self.location(16, 29))
    }

    @Test func backgroundActions() throws {
        let statement = try Self.statement("phone: reset-sync-data then delete-all &")
        guard case .deviceAction(let action) = statement.kind else {
            Issue.record("not a device action")
            return
        }
        #expect(action.action == .resetSyncData(thenDeleteAll: true))
        #expect(action.runsInBackground && action.action.waits)
    }

    @Test func triggersDefaultToTheFirstOccurrence() throws {
        let first = try Self.statement("when phone reaches download.done: tablet: sign-in bob")
        guard case .trigger(let trigger) = first.kind else {
            Issue.record("not a trigger")
            return
        }
        #expect(trigger.probe.value == "download.done")
        #expect(trigger.occurrence.value == 1)
        guard case .device(let action) = trigger.action else {
            Issue.record("not a device action")
            return
        }
        #expect(action.device.value == "tablet")
        #expect(action.action == .signIn(account: .init("bob", at: Self.location(16, 51))))
        let third = try Self.statement(
            "when phone reaches download.page.saved 3: cloud: deploy-schema")
        guard case .trigger(let counted) = third.kind, case .cloud(let cloud) = counted.action
        else {
            Issue.record("not a cloud trigger")
            return
        }
        #expect(counted.occurrence.value == 3)
        #expect(cloud.action == .deploySchema)
    }

    @Test func cloudActions() throws {
        let throttle = try Self.statement(
            "cloud: throttle alice next-upload 2 records retry-after 1.5s")
        guard case .cloudAction(let statement) = throttle.kind,
            case .throttleNextUpload(let account, let records, let retryAfter) = statement.action
        else { Issue.record("not a throttle"); return }
        #expect(account.value == "alice" && records.value == 2)
        #expect(retryAfter.value == TimeSpan(microseconds: 1_500_000))
        let drop = try Self.statement("cloud: push drop 0.5%")
        guard case .cloudAction(let dropStatement) = drop.kind
        else { Issue.record("not a cloud action"); return }
        #expect(dropStatement.action == .setting(.pushDrop(Probability(partsPerMillion: 5_000))))
        let reject = try Self.statement("cloud: reject n1 with quotaExceeded")
        guard case .cloudAction(let rejectStatement) = reject.kind,
            case .reject(_, let code) = rejectStatement.action
        else { Issue.record("not a reject"); return }
        #expect(code.value == .quotaExceeded)
    }

    @Test(arguments: [
        ("expect phone: state error(userDeletedZone)", "state"),
        ("expect phone: not downloaded-once", "downloaded-once"),
        ("expect not fired LIM-2", "fired"),
        ("expect tablet: not fired SYNC-3", "fired"),
        ("expect cloud alice: n1 named \"Note.x\"", "named"),
        ("expect cloud alice: count Note where title=\"x\" = 2", "count"),
        ("expect phone: pending 3", "pending"),
        ("expect not converged", "converged"),
    ])
    func expectations(line: String, kind: String) throws {
        let statement = try Self.statement(line)
        guard case .expectation(let expectation) = statement.kind else {
            Issue.record("not an expectation")
            return
        }
        switch (expectation.kind, kind) {
        case (.state(_, let state, let argument), "state"):
            #expect(state.value == "error" && argument?.value == "userDeletedZone")
        case (.downloadedOnce(_, let expected), "downloaded-once"):
            #expect(!expected)
        case (.fired(let device, let rule, let expected), "fired"):
            #expect(!expected && (device == nil) == (rule.value == "LIM-2"))
        case (.recordName(let account, let label, let name), "named"):
            #expect(account.value == "alice" && label.value == "n1" && name.value == "Note.x")
        case (
            .count(.cloud(let account), let entity, let filter, let comparison, let count), "count"
        ):
            #expect(account.value == "alice" && entity.value == "Note" && comparison == .equal)
            #expect(filter.map(\.key.value) == ["title"] && count.value == 2)
        case (.pending(_, let count), "pending"):
            #expect(count.value == 3)
        case (.converged(let expected), "converged"):
            #expect(!expected)
        default:
            Issue.record("unexpected \(expectation.kind)")
        }
    }

    @Test func waitsAndTimes() throws {
        let source = Self.setup + "wait 2s\nwait until phone idle\nsettle\nat 1m\n"
        let timeline = ScenarioChecker.check(source: source, file: "t").scenario.timeline
        #expect(timeline.map(\.kind) == [
            .wait(.init(TimeSpan(microseconds: 2_000_000), at: Self.location(14, 6))),
            .waitUntilIdle(device: .init("phone", at: Self.location(15, 12))),
            .settle,
            .at(.init(TimeSpan(microseconds: 60_000_000), at: Self.location(17, 4))),
        ])
    }

    @Test func headerStatements() {
        let source = """
            scenario "Title"
            about "One"
            about "Two"
            seed 18446744073709551615
            engine naive
            """
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.isEmpty)
        let header = result.scenario.header
        #expect(header.title?.value == "Title")
        #expect(header.about.map(\.value) == ["One", "Two"])
        #expect(header.effectiveSeed == .max)
        #expect(header.effectiveEngine == "naive")
        #expect(ScenarioParser.parse(source: "scenario \"x\"", file: "t").scenario.header
            .effectiveSeed == 1)
    }

    @Test func commentsBlankLinesAndCarriageReturnsAreIgnored() {
        let source = "# comment\r\nscenario \"a # not a comment\" # comment\r\n\r\n  \t\nsettle\r\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.isEmpty)
        #expect(result.scenario.header.title?.value == "a # not a comment")
        #expect(result.scenario.timeline.map(\.line) == [5])
    }
}
