import Scenario
import Testing

/// `count ENTITY … >= N` (and `<=`, `>`, `<`, beside `=`): the bounds a SyncLab addition gives
/// the count expectation, and the errors of the forms it does not take.
@Suite struct CountBoundTests {
    static let setup = header + """
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice

        """

    @Test(arguments: [
        ("=", CountComparison.equal), (">=", .atLeast), ("<=", .atMost), (">", .moreThan),
        ("<", .fewerThan),
    ])
    func eachComparisonIsRead(written: String, comparison: CountComparison) throws {
        let lines = [
            "expect phone: count Note \(written) 1",
            "expect cloud alice: count Note where title=\"a\" \(written)1",
        ]
        let result = ScenarioChecker.check(
            source: Self.setup + lines.joined(separator: "\n") + "\n", file: "t")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.rendered))")
        let kinds = result.scenario.timeline.compactMap { statement -> ExpectationKind? in
            if case .expectation(let expectation) = statement.kind { return expectation.kind }
            return nil
        }
        #expect(kinds.count == 2)
        for kind in kinds {
            guard case .count(_, _, _, let found, let count) = kind else {
                Issue.record("not a count: \(kind)")
                continue
            }
            #expect(found == comparison && count.value == 1)
        }
    }

    @Test func theBoundsHoldAsWritten() {
        let table: [(CountComparison, Int, Int, Bool)] = [
            (.equal, 2, 2, true), (.equal, 3, 2, false),
            (.atLeast, 2, 2, true), (.atLeast, 1, 2, false),
            (.atMost, 2, 2, true), (.atMost, 3, 2, false),
            (.moreThan, 3, 2, true), (.moreThan, 2, 2, false),
            (.fewerThan, 1, 2, true), (.fewerThan, 2, 2, false),
        ]
        for (comparison, actual, expected, holds) in table {
            #expect(
                comparison.holds(actual, expected) == holds,
                "\(actual) \(comparison) \(expected)")
        }
    }

    @Test func badFormsArePlaced() {
        let wanted = "'=', '>=', '<=', '>' or '<'"
        assertDiagnostics(Self.setup + "expect phone: count Note 1️⃣2\n", [.init("1️⃣",
            "expected \(wanted), found '2'", id: "expected")])
        assertDiagnostics(Self.setup + "expect phone: count Note =1️⃣> 1\n", [.init("1️⃣",
            "expected a count, found '>'", id: "expected")])
        assertDiagnostics(Self.setup + "expect phone: count Note =1️⃣= 1\n", [.init("1️⃣",
            "expected a count, found '='", id: "expected")])
        assertDiagnostics(Self.setup + "expect phone: count Note >=1️⃣\n", [.init("1️⃣",
            "expected a count, found end of line", id: "expected")])
        assertDiagnostics(Self.setup + "expect phone: count Note < 1️⃣0\n", [.init("1️⃣",
            "number '0' must be at least 1", id: "number-too-small")])
        assertDiagnostics(Self.setup + "expect phone: count Note >= 1️⃣-1\n", [.init("1️⃣",
            "number '-1' must be at least 0", id: "number-too-small")])
        assertDiagnostics(Self.setup + "expect phone: count Note >= 1️⃣1.5\n", [.init("1️⃣",
            "expected a count, found '1.5'", id: "expected")])
    }

    /// A comparison sign anywhere else is an unexpected token, no longer an unknown character.
    @Test func aComparisonElsewhereIsAnError() {
        let result = ScenarioChecker.check(source: Self.setup + "phone: sync >\n", file: "t")
        #expect(result.hasErrors)
    }
}
