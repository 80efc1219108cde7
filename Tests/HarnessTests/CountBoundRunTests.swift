import Harness
import Testing

/// The bounds of a count expectation (`>=`, `<=`, `>`, `<`) are held against the models and
/// the records a run finds, and a failure shows the number found.
@Suite struct CountBoundRunTests {
    static let story = RuntimeRobustnessTests.header + """
        settle
        phone: insert Note n1
        phone: insert Note n2
        settle

        """

    @Test(arguments: [
        "expect phone: count Note >= 2", "expect phone: count Note <= 2",
        "expect phone: count Note > 1", "expect phone: count Note < 3",
        "expect cloud alice: count Note >= 1", "expect phone: count Note where title=\"\" = 2",
    ])
    func aBoundThatHoldsPasses(line: String) {
        let result = RuntimeRobustnessTests.run(Self.story + line + "\n")
        #expect(result.passed, "\(result.expectations)")
    }

    @Test(arguments: [
        "expect phone: count Note >= 3", "expect phone: count Note <= 1",
        "expect phone: count Note > 2", "expect cloud alice: count Note < 2",
    ])
    func aBoundThatFailsShowsTheCount(line: String) {
        let result = RuntimeRobustnessTests.run(Self.story + line + "\n")
        #expect(!result.passed)
        #expect(result.expectations.map(\.found) == ["2"])
    }
}
