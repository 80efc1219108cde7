import Reporting
import Testing

/// Rules are listed as a reader scans them: the catalogue's order when given, else by
/// group and number (`SYNC-2` before `SYNC-10`).
@Suite struct RuleOrderTests {
    static let events = ["SYNC-10", "DL-1", "SYNC-2", "LIM-1", "SYNC-2", "X"].map {
        Fixtures.event(0, "phone", "decided", rules: [$0])
    }

    @Test func idOrderComparesNumbersAsNumbers() {
        let tallies = RuleTally.tally(Self.events, ruleTexts: [:], order: ["phone"])
        #expect(tallies.map(\.id) == ["DL-1", "LIM-1", "SYNC-2", "SYNC-10", "X"])
        #expect(tallies.map(\.count) == [1, 1, 2, 1, 1])
    }

    @Test func catalogueOrderComesFirst() {
        let tallies = RuleTally.tally(Self.events, ruleTexts: [:], order: ["phone"],
                                      ruleOrder: ["SYNC-2", "SYNC-10", "DL-1", "LIM-1"])
        #expect(tallies.map(\.id) == ["SYNC-2", "SYNC-10", "DL-1", "LIM-1", "X"])
    }
}
