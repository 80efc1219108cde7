import Scenario
import Testing

/// `cloud: put-record …` and `cloud: serve-old-version …` (SyncLab additions, issue 42,
/// docs/FORMAT.md *Cloud actions*).
@Suite struct ServerDataStatementTests {
    static let setup = header + """
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        phone: insert Note n1 title="A"

        """

    private func actions(_ lines: String) -> [CloudAction] {
        let result = ScenarioChecker.check(source: Self.setup + lines, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        return result.scenario.timeline.compactMap { statement in
            guard case .cloudAction(let action) = statement.kind else { return nil }
            return action.action
        }
    }

    @Test func putRecordTakesATypeANameAndRawFields() {
        let found = actions("cloud: put-record alice Gadget \"g-1\" color=\"red\" size=3 owner=n1\n"
            + "cloud: put-record alice CD_Note bare\n")
        guard case .putRecord(let account, let type, let name, let fields)? = found.first,
              case .putRecord(_, let secondType, let secondName, let none)? = found.last
        else {
            Issue.record("not put-record: \(found)")
            return
        }
        #expect([account.value, type.value, name.value] == ["alice", "Gadget", "g-1"])
        #expect(fields.map(\.key.value) == ["color", "size", "owner"])
        #expect([secondType.value, secondName.value] == ["CD_Note", "bare"])
        #expect(none.isEmpty)
    }

    @Test func serveOldVersionTakesAnAccountAndALabel() {
        let found = actions("cloud: serve-old-version alice n1\n")
        guard case .serveOldVersion(let account, let label)? = found.first else {
            Issue.record("not serve-old-version: \(found)")
            return
        }
        #expect([account.value, label.value] == ["alice", "n1"])
    }

    @Test func badInputIsPlaced() {
        assertDiagnostics(
            Self.setup + "cloud: put-record alice Gadget \"g\" on=1️⃣false\n",
            [.init("1️⃣", "raw field 'on' cannot hold 'false': CloudKit stores a Bool as the "
                + "number 1 or 0; did you mean '0'?", id: "type-mismatch")])
        assertDiagnostics(
            Self.setup + "cloud: put-record 1️⃣alcie Gadget \"g\"\n",
            [.init("1️⃣", "unknown account 'alcie'; did you mean 'alice'?", id: "unknown-account")])
        assertDiagnostics(
            Self.setup + "cloud: serve-old-version alice 1️⃣n2\n",
            [.init("1️⃣", "label 'n2' is not bound by an earlier 'insert'; did you mean 'n1'?", id: "unknown-label")])
        assertDiagnostics(
            Self.setup + "cloud: 1️⃣serve-old alice n1\n",
            [.init("1️⃣", "unknown cloud action 'serve-old'; did you mean 'serve-old-version'?",
                id: "unknown-cloud-action")])
    }
}

/// `cloud: fail-next-batch ACCOUNT [with CODE]` (a SyncLab addition, issue 42).
@Suite struct FailNextBatchStatementTests {
    @Test func theCodeIsOptional() {
        let source = ServerDataStatementTests.setup
            + "cloud: fail-next-batch alice\ncloud: fail-next-batch alice with serverRejectedRequest\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        let codes = result.scenario.timeline.compactMap { statement -> String? in
            guard case .cloudAction(let action) = statement.kind,
                  case .failNextBatch(_, let code) = action.action else { return nil }
            return code?.value.rawValue ?? "none"
        }
        #expect(codes == ["none", "serverRejectedRequest"])
    }

    @Test func anUnknownCodeSuggestsTheClosest() {
        assertDiagnostics(
            ServerDataStatementTests.setup + "cloud: fail-next-batch alice with 1️⃣batchRequestFail\n",
            [.init("1️⃣", "unknown CloudKit error 'batchRequestFail'; did you mean "
                + "'batchRequestFailed'?", id: "unknown-error-code")])
    }
}
