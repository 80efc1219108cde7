import Testing

@testable import CloudSim

/// The words of the tokenized search, folded as CloudKit's `self CONTAINS` compares them.
@Suite struct QueryTokensTests {
    @Test func wordsIgnoreCaseMarksAndPunctuation() {
        #expect(QueryTokens.words(of: "Ångström's NAÏVE, Ça-va 42!")
            == ["angstrom", "s", "naive", "ca", "va", "42"])
        #expect(QueryTokens.words(of: "e\u{301}te\u{301}") == ["ete"], "combining marks")
        #expect(QueryTokens.words(of: "ΆΛΦΑ") == QueryTokens.words(of: "αλφα"))
        #expect(QueryTokens.words(of: "  ... ").isEmpty)
    }

    @Test func aRecordHoldsEveryWordOrNot() {
        var record = CloudRecord(recordType: "Note", recordName: "n1",
                                 zone: ZoneID(owner: "alice", name: "Notes"))
        record.fields["body"] = .string("Milk and eggs")
        record.fields["tags"] = .list([.string("Kitchen"), .int(3)])
        #expect(QueryTokens.record(record, holdsEveryWordOf: "EGGS kitchen"))
        #expect(!QueryTokens.record(record, holdsEveryWordOf: "eggs bread"))
        #expect(!QueryTokens.record(record, holdsEveryWordOf: "3"), "a number is not a string")
        #expect(!QueryTokens.record(record, holdsEveryWordOf: ""))
    }
}
