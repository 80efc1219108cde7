import Scenario
import Testing

/// `cloud missing-deletes succeed|unknown-item` and `cloud: missing-deletes …` (a SyncLab
/// addition, issue 14, docs/FORMAT.md §5): how the cloud answers a delete of a record that
/// does not exist.
@Suite struct MissingDeletesSettingTests {
    @Test func theDefaultIsSucceed() {
        #expect(CloudConfiguration().missingDeletes == .succeed)
        let result = ScenarioParser.parse(source: header, file: "t")
        #expect(result.scenario.cloud.missingDeletes == .succeed)
    }

    @Test(arguments: [("succeed", MissingDeletes.succeed), ("unknown-item", .unknownItem)])
    func theSetupSetsIt(word: String, answer: MissingDeletes) {
        let result = ScenarioChecker.check(source: header + "cloud missing-deletes \(word)\n", file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        #expect(result.scenario.cloud.missingDeletes == answer)
        #expect(result.scenario.cloudSettings.map(\.kind) == [.missingDeletes(answer)])
    }

    @Test func theTimelineChangesIt() throws {
        let source = header + "account alice\ndevice phone on alice\ncloud: missing-deletes unknown-item\n"
            + "cloud: missing-deletes succeed\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        let actions = result.scenario.timeline.compactMap { statement -> CloudAction? in
            guard case .cloudAction(let action) = statement.kind else { return nil }
            return action.action
        }
        #expect(actions == [.setting(.missingDeletes(.unknownItem)), .setting(.missingDeletes(.succeed))])
        #expect(result.scenario.cloud.missingDeletes == .succeed, "the setup's value: the default")
    }

    @Test func setTwiceInTheSetupIsADuplicateSetting() {
        assertDiagnostics(
            header + "cloud missing-deletes succeed\n1️⃣cloud missing-deletes unknown-item\n",
            [.init("1️⃣", "'cloud missing-deletes' is set twice in the setup", id: "duplicate-setting")])
    }

    @Test func aBadValueIsPlacedAndSuggestsTheClosest() {
        assertDiagnostics(
            header + "cloud missing-deletes 1️⃣unknownItem\n",
            [.init("1️⃣", "expected 'succeed' or 'unknown-item', found 'unknownItem'; did you mean "
                + "'unknown-item'?", id: "expected")])
        assertDiagnostics(
            header + "cloud: missing-deletes 1️⃣succeeds\n",
            [.init("1️⃣", "expected 'succeed' or 'unknown-item', found 'succeeds'; did you mean "
                + "'succeed'?", id: "expected")])
        assertDiagnostics(
            header + "cloud 1️⃣missing-delete succeed\n",
            [.init("1️⃣", "unknown cloud setting 'missing-delete'; did you mean 'missing-deletes'?",
                id: "unknown-cloud-setting")])
    }
}
