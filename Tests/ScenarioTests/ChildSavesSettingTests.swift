import Scenario
import Testing

/// `cloud child-saves leave-parent|touch-parent` and `cloud: child-saves …` (a SyncLab
/// addition, issue 42, docs/FORMAT.md §5): whether a child's save gives its parent a new
/// change tag.
@Suite struct ChildSavesSettingTests {
    @Test func theDefaultLeavesTheParent() {
        #expect(CloudConfiguration().childSaves == .leaveParent)
        let result = ScenarioParser.parse(source: header, file: "t")
        #expect(result.scenario.cloud.childSaves == .leaveParent)
    }

    @Test(arguments: [("leave-parent", ChildSaves.leaveParent), ("touch-parent", .touchParent)])
    func theSetupSetsIt(word: String, value: ChildSaves) {
        let result = ScenarioChecker.check(source: header + "cloud child-saves \(word)\n", file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        #expect(result.scenario.cloud.childSaves == value)
        #expect(result.scenario.cloudSettings.map(\.kind) == [.childSaves(value)])
    }

    @Test func theTimelineChangesIt() {
        let source = header + "account alice\ndevice phone on alice\ncloud: child-saves touch-parent\n"
            + "cloud: child-saves leave-parent\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
        let actions = result.scenario.timeline.compactMap { statement -> CloudAction? in
            guard case .cloudAction(let action) = statement.kind else { return nil }
            return action.action
        }
        #expect(actions == [.setting(.childSaves(.touchParent)), .setting(.childSaves(.leaveParent))])
        #expect(result.scenario.cloud.childSaves == .leaveParent, "the setup's value: the default")
    }

    @Test func setTwiceInTheSetupIsADuplicateSetting() {
        assertDiagnostics(
            header + "cloud child-saves touch-parent\n1️⃣cloud child-saves leave-parent\n",
            [.init("1️⃣", "'cloud child-saves' is set twice in the setup", id: "duplicate-setting")])
    }

    @Test func aBadValueIsPlacedAndSuggestsTheClosest() {
        assertDiagnostics(
            header + "cloud child-saves 1️⃣touch\n",
            [.init("1️⃣", "expected 'leave-parent' or 'touch-parent', found 'touch'; did you mean "
                + "'touch-parent'?", id: "expected")])
        assertDiagnostics(
            header + "cloud: child-saves 1️⃣leave-parents\n",
            [.init("1️⃣", "expected 'leave-parent' or 'touch-parent', found 'leave-parents'; did "
                + "you mean 'leave-parent'?", id: "expected")])
        assertDiagnostics(
            header + "cloud 1️⃣child-save touch-parent\n",
            [.init("1️⃣", "unknown cloud setting 'child-save'; did you mean 'child-saves'?",
                id: "unknown-cloud-setting")])
    }
}
