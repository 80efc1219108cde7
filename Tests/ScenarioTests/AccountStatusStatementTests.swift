import Scenario
import Testing

/// `DEVICE: account-status STATUS` (a SyncLab addition): the `CKAccountStatus` values other
/// than `noAccount` (that is `sign-out`), written as Apple names them.
@Suite struct AccountStatusStatementTests {
    static let setup = header + """
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice

        """

    @Test(arguments: AccountStatusSetting.allCases)
    func eachStatusIsRead(status: AccountStatusSetting) throws {
        let source = Self.setup + "phone: account-status \(status.rawValue)\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.rendered))")
        guard case .deviceAction(let statement) = result.scenario.timeline.first?.kind,
            case .accountStatus(let setting) = statement.action
        else {
            Issue.record("not an account-status statement")
            return
        }
        #expect(setting.value == status && setting.location.column == 23)
        #expect(statement.action.keyword == "account-status")
    }

    @Test func unknownStatusesArePlacedWithASuggestion() {
        let names = "'available', 'restricted', 'couldNotDetermine' or 'temporarilyUnavailable'"
        assertDiagnostics(Self.setup + "phone: account-status 1️⃣restricetd\n", [.init("1️⃣",
            "expected \(names), found 'restricetd'; did you mean 'restricted'?", id: "expected")])
        assertDiagnostics(Self.setup + "phone: account-status 1️⃣noAccount\n", [.init("1️⃣",
            "expected \(names), found 'noAccount'", id: "expected")])
        assertDiagnostics(Self.setup + "phone: account-status1️⃣\n", [.init("1️⃣",
            "expected \(names), found end of line", id: "expected")])
    }

    /// The script does not wait for an account change, so `&` is refused.
    @Test func backgroundIsRefused() {
        assertDiagnostics(Self.setup + "phone: account-status restricted 1️⃣&\n", [.init("1️⃣",
            "'&' cannot follow 'account-status': only 'sync', 'launch', 'start', "
                + "'reset-sync-data' and 'initialize-schema' wait",
            id: "background-not-allowed")])
    }
}
