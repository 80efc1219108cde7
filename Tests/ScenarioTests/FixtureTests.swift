import Scenario
import Testing

/// The contract's own example and a file using every statement check without diagnostics.
@Suite struct FixtureTests {
    @Test(arguments: ["contract-example", "every-statement"])
    func fixtureChecksClean(name: String) throws {
        let result = ScenarioChecker.check(source: try Fixtures.text(name), file: name)
        #expect(result.diagnostics.map(\.rendered) == [])
    }

    @Test func contractExampleTree() throws {
        let result = ScenarioParser.parse(source: try Fixtures.text("contract-example"), file: "x")
        let scenario = result.scenario
        #expect(scenario.header.title?.value
            == "An edit made offline survives another device's edit of another key")
        #expect(scenario.header.effectiveSeed == 7)
        #expect(scenario.header.effectiveEngine == "sds")
        #expect(scenario.entities.map(\.name.value) == ["Note"])
        #expect(scenario.entities.first?.attributes.map(\.name.value) == ["title", "body"])
        #expect(scenario.accounts.map(\.name.value) == ["alice"])
        #expect(scenario.devices.map(\.name.value) == ["phone", "laptop"])
        #expect(scenario.devices.map { $0.account?.value } == ["alice", "alice"])
        #expect(scenario.timeline.count == 13)
        #expect(scenario.timeline.first?.line == 13)
        #expect(scenario.cloud == CloudConfiguration())
    }

    @Test func everyStatementFixtureCoversEveryActionKeyword() throws {
        let text = try Fixtures.text("every-statement")
        let scenario = ScenarioParser.parse(source: text, file: "x").scenario
        var deviceActions: [String] = []
        var cloudActions = 0
        var expectations = 0
        for statement in scenario.timeline {
            switch statement.kind {
            case .deviceAction(let action): deviceActions.append(Self.keyword(action.action))
            case .cloudAction: cloudActions += 1
            case .expectation: expectations += 1
            default: break
            }
        }
        let expected = ["insert", "update", "delete", "begin", "save", "rollback",
            "batch-delete", "sync", "autosync", "offline", "online", "kill", "launch", "stop",
            "start", "reset-sync-data", "initialize-schema", "sign-in", "sign-out",
            "account-unavailable", "account-available", "account-status", "lose-store",
            "rebuild-store",
            "share", "accept", "unshare", "remove", "leave"]
        #expect(Set(expected).subtracting(deviceActions).isEmpty)
        #expect(cloudActions == 17)
        #expect(expectations == 22)
    }

    static func keyword(_ action: DeviceAction) -> String {
        switch action {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        case .begin: "begin"
        case .save: "save"
        case .rollback: "rollback"
        case .batchDelete: "batch-delete"
        case .sync: "sync"
        case .autosync: "autosync"
        case .offline: "offline"
        case .online: "online"
        case .kill: "kill"
        case .launch: "launch"
        case .stop: "stop"
        case .start: "start"
        case .resetSyncData: "reset-sync-data"
        case .initializeSchema: "initialize-schema"
        case .signOut: "sign-out"
        case .signIn: "sign-in"
        case .accountUnavailable: "account-unavailable"
        case .accountAvailable: "account-available"
        case .accountStatus: "account-status"
        case .loseStore: "lose-store"
        case .rebuildStore: "rebuild-store"
        case .share, .sharePublic: "share"
        case .acceptShare: "accept"
        case .unshare: "unshare"
        case .removeParticipant: "remove"
        case .leaveShare: "leave"
        case .diskFull(let full): full ? "disk-full" : "disk-ok"
        case .observe: "observe"
        case .upgrade: "upgrade"
        }
    }
}
