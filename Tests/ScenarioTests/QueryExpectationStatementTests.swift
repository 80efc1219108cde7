import Scenario
import Testing

/// `expect cloud ACCOUNT: query TYPE [where FIELD OP VALUE …] returns [OP] N` (a SyncLab
/// addition, docs/FORMAT.md §8 *Expectations*).
@Suite struct QueryExpectationStatementTests {
    static let setup = header + """
        entity Note {
          title: String = ""
          rank: Int = 0
        }
        account alice
        device phone on alice
        phone: insert Note n1 title="A"
        phone: insert Note query title="B"

        """

    private func kinds(_ lines: String) -> [ExpectationKind] {
        expectationKinds(Self.setup + lines)
    }

    @Test func aQueryNamesATypeItsConditionsAndACount() {
        let found = kinds("expect cloud alice: query CD_Note where CD_rank>=2 CD_title=\"A\" "
            + "returns <= 3\n")
        guard case .query(let account, let type, let conditions, let comparison, let count)?
            = found.first
        else {
            Issue.record("not a query expectation: \(found)")
            return
        }
        #expect(account.value == "alice")
        #expect(type.value == "CD_Note")
        #expect(conditions.map(\.field.value) == ["CD_rank", "CD_title"])
        #expect(conditions.map(\.comparison.value) == [.greaterOrEqual, .equal])
        #expect(conditions.map(\.value.literal) == [.integer(2), .string("A")])
        #expect(comparison == .atMost)
        #expect(count.value == 3)
    }

    @Test func withoutABoundTheCountIsExact() {
        let found = kinds("expect cloud alice: query Note returns 2\n"
            + "expect cloud alice: query Note where rank<1 returns = 0\n")
        let counts = found.compactMap { kind -> String? in
            guard case .query(_, _, let conditions, let comparison, let count) = kind else {
                return nil
            }
            return "\(conditions.count) \(comparison.rawValue) \(count.value)"
        }
        #expect(counts == ["0 = 2", "1 = 0"])
    }

    /// A label called `query` keeps meaning the label, with values or any other form.
    @Test func aLabelCalledQueryStaysALabel() {
        let found = kinds("expect cloud alice: query title=\"B\"\n"
            + "expect cloud alice: query\n"
            + "expect cloud alice: query raw title=\"B\"\n")
        #expect(found.count == 3)
        guard case .values(_, let label, let values)? = found.first else {
            Issue.record("not a values expectation: \(found)")
            return
        }
        #expect(label.value == "query")
        #expect(values.map(\.key.value) == ["title"])
        if case .rawValues(_, let label, _)? = found.last { #expect(label.value == "query") }
    }

    @Test func theCountNeedsReturnsAndAConditionAfterWhere() {
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note 1️⃣\n",
            [.init("1️⃣", "expected 'where' or 'returns', found end of line", id: "expected")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note where 1️⃣returns 1\n",
            [.init("1️⃣", "expected a condition such as 'title=\"B\"' or 'rank>=2', found "
                + "'returns'", id: "expected")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note where rank=1 1️⃣= 1\n",
            [.init("1️⃣", "expected 'returns', found '='", id: "expected")])
    }

    @Test func valuesTheServerCannotCompareAreErrors() {
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note where title=1️⃣nil returns 0\n",
            [.init("1️⃣", "a query cannot compare 'title' with nil: the server matches only "
                + "records that have the field", id: "type-mismatch")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note where pinned=1️⃣true returns 0\n",
            [.init("1️⃣", "raw field 'pinned' cannot hold 'true': CloudKit stores a Bool as the "
                + "number 1 or 0; did you mean '1'?", id: "type-mismatch")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note where other1️⃣>n1 returns 0\n",
            [.init("1️⃣", "a query cannot order 'other' by a reference: only numbers and "
                + "strings have an order; did you mean '='?", id: "type-mismatch")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: query Note where other=1️⃣n9 returns 0\n",
            [.init("1️⃣", "label 'n9' is not bound by an earlier 'insert'; did you mean 'n1'?",
                id: "unknown-label")])
    }
}
