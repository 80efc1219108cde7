import Scenario
import Testing

/// `expect cloud ACCOUNT: LABEL in zone NAME`, `… LABEL raw FIELD=VALUE …`, `expect failure
/// "TEXT"` and `expect DEVICE: load-error "TEXT"` (SyncLab additions, issue 42, docs/FORMAT.md
/// §8 *Expectations*).
@Suite struct RecordExpectationStatementTests {
    static let setup = header + """
        entity Note {
          title: String = ""
          raw: String = ""
        }
        account alice
        device phone on alice
        phone: insert Note n1 title="A"

        """

    private func kinds(_ lines: String) -> [ExpectationKind] {
        expectationKinds(Self.setup + lines)
    }

    @Test func aZoneIsAnIdentifierOrAString() {
        let zones = kinds("expect cloud alice: n1 in zone Notes\n"
            + "expect cloud alice: n1 in zone \"Collection-1\"\n").compactMap { kind -> String? in
            guard case .recordZone(_, _, let zone) = kind else { return nil }
            return zone.value
        }
        #expect(zones == ["Notes", "Collection-1"])
    }

    @Test func rawFieldsAreAnyIdentifier() {
        let found = kinds("expect cloud alice: n1 raw CD_title=\"A\" CD_pinned=1 _ckAsset=nil\n")
        guard case .rawValues(_, _, let values)? = found.first else {
            Issue.record("not a raw expectation: \(found)")
            return
        }
        #expect(values.map(\.key.value) == ["CD_title", "CD_pinned", "_ckAsset"])
    }

    @Test func aPropertyCalledRawStaysAValue() {
        let found = kinds("expect cloud alice: n1 raw=\"x\"\n")
        guard case .values(_, _, let values)? = found.first else {
            Issue.record("not a values expectation: \(found)")
            return
        }
        #expect(values.map(\.key.value) == ["raw"])
    }

    @Test func failuresAndLoadErrorsTakeTheirText() {
        let found = kinds("expect failure \"has no record\"\nexpect phone: load-error \"Note: a\"\n")
        #expect(found.count == 2)
        if case .failure(let text)? = found.first { #expect(text.value == "has no record") }
        if case .loadError(let device, let text)? = found.last {
            #expect(device.value == "phone")
            #expect(text.value == "Note: a")
        }
    }

    @Test func aBoolIsNoRawValue() {
        assertDiagnostics(
            Self.setup + "expect cloud alice: n1 raw CD_pinned=1️⃣true\n",
            [.init("1️⃣", "raw field 'CD_pinned' cannot hold 'true': CloudKit stores a Bool as the "
                + "number 1 or 0; did you mean '1'?", id: "type-mismatch")])
    }

    @Test func rawNeedsAFieldAndLabelsMustBeBound() {
        assertDiagnostics(
            Self.setup + "expect cloud alice: n1 raw 1️⃣\n",
            [.init("1️⃣", "expected a field such as 'CD_title=\"B\"', found end of line",
                id: "expected")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: n1 raw CD_folder=1️⃣f9\n",
            [.init("1️⃣", "label 'f9' is not bound by an earlier 'insert'", id: "unknown-label")])
    }

    @Test func aZoneNeedsTheWordZoneAndAValidName() {
        assertDiagnostics(
            Self.setup + "expect cloud alice: n1 in 1️⃣zones Notes\n",
            [.init("1️⃣", "expected 'zone', found 'zones'", id: "expected")])
        assertDiagnostics(
            Self.setup + "expect cloud alice: n1 in zone 1️⃣\"_hidden\"\n",
            [.init("1️⃣", "zone '_hidden' cannot be named here: names starting with '_' are "
                + "reserved", id: "invalid-zone-name")])
    }

    @Test func loadErrorIsAboutADevice() {
        assertDiagnostics(
            Self.setup + "expect cloud alice: 1️⃣load-error \"x\"\n",
            [.init("1️⃣", "'load-error' is an expectation about a device, not the cloud",
                id: "device-only-expectation")])
    }
}

/// `expect failure` needs its text; a device may still be called `failure`.
@Suite struct ExpectFailureStatementTests {
    @Test func theTextIsAString() {
        assertDiagnostics(
            RecordExpectationStatementTests.setup + "expect failure 1️⃣b1\n",
            [.init("1️⃣", "expected the text of the failure in quotes, found 'b1'",
                id: "expected")])
    }

    @Test func aDeviceCalledFailureKeepsWorking() {
        let source = header + "entity Note {\n  title: String = \"\"\n}\naccount alice\n"
            + "device failure on alice\nfailure: insert Note n1\nexpect failure: n1 title=\"\"\n"
        let result = ScenarioChecker.check(source: source, file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
    }
}

/// `expect warning` needs its text; a device may still be called `warning`.
@Suite struct ExpectWarningStatementTests {
    @Test func theTextIsAString() {
        assertDiagnostics(
            RecordExpectationStatementTests.setup + "expect warning 1️⃣12\n",
            [.init("1️⃣", "expected the text of the warning in quotes, found '12'",
                id: "expected")])
        let result = ScenarioChecker.check(
            source: RecordExpectationStatementTests.setup + "expect warning \"races\"\n", file: "t")
        #expect(result.diagnostics.map(\.rendered) == [])
    }
}
