import CloudSim
import Foundation
import Testing

@testable import CloudKit

/// `NSPredicate(format:)` of the subset CloudKit queries accept ([CKQuery]), read into the
/// server's predicate: each form, argument substitution, and what is refused with which
/// message (docs/CLOUDSIM.md *Queries*).
@Suite struct PredicateFormatParsingTests {
    /// What a predicate parsed to, or its refusal message.
    func parsed(_ predicate: NSPredicate) -> Result<QueryPredicate, PredicateFormatError>? {
        NSPredicate.formatPredicates.value(for: predicate)?.parsed
    }

    func server(_ predicate: NSPredicate) -> QueryPredicate? {
        guard case .success(let parsed)? = parsed(predicate) else { return nil }
        return parsed
    }

    func refusal(_ predicate: NSPredicate) -> PredicateFormatError? {
        guard case .failure(let error)? = parsed(predicate) else { return nil }
        return error
    }

    @Test func constantPredicatesInAnyCase() {
        #expect(server(NSPredicate(format: "TRUEPREDICATE")) == .all)
        #expect(server(NSPredicate(format: "truePredicate")) == .all)
        #expect(server(NSPredicate(format: " FALSEPREDICATE ")) == QueryPredicate.none)
    }

    @Test func everySpellingOfEachComparison() {
        let forms: [(String, QueryComparison)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
            ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual), (">", .greater),
            (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
        ]
        for (spelling, comparison) in forms {
            #expect(server(NSPredicate(format: "rank \(spelling) 3"))
                == .compare(key: "rank", comparison, .int(3)), "\(spelling)")
        }
        #expect(server(NSPredicate(format: "rank<3")) == .compare(key: "rank", .less, .int(3)))
    }

    @Test func literalValues() {
        #expect(server(NSPredicate(format: "title == 'It''s'")) == nil)
        #expect(server(NSPredicate(format: #"title == "say \"hi\"""#))
            == .compare(key: "title", .equal, .string(#"say "hi""#)))
        #expect(server(NSPredicate(format: "title == 'a b'"))
            == .compare(key: "title", .equal, .string("a b")))
        #expect(server(NSPredicate(format: "score > -2.5"))
            == .compare(key: "score", .greater, .double(-2.5)))
        #expect(server(NSPredicate(format: "score < 1e3"))
            == .compare(key: "score", .less, .double(1000)))
        for (word, value) in [("TRUE", 1), ("yes", 1), ("False", 0), ("NO", 0)] {
            #expect(server(NSPredicate(format: "done == \(word)"))
                == .compare(key: "done", .equal, .int(Int64(value))), "\(word)")
        }
    }

    @Test func argumentsAreSubstitutedInOrder() {
        #expect(server(NSPredicate(format: "%K == %@", "title", "Groceries"))
            == .compare(key: "title", .equal, .string("Groceries")))
        #expect(server(NSPredicate(format: "rank >= %d AND score < %f", 2, 3))
            == .and([
                .compare(key: "rank", .greaterOrEqual, .int(2)),
                .compare(key: "score", .less, .double(3)),
            ]))
        #expect(server(NSPredicate(format: "a == %ld && b == %lld && c == %u && d == %lf",
            1, Int64(2), UInt(3), 4.5))
            == .and([
                .compare(key: "a", .equal, .int(1)), .compare(key: "b", .equal, .int(2)),
                .compare(key: "c", .equal, .int(3)), .compare(key: "d", .equal, .double(4.5)),
            ]))
        #expect(server(NSPredicate(format: "done == %@", true))
            == .compare(key: "done", .equal, .int(1)))
        #expect(server(NSPredicate(format: "rank == %@", NSNumber(value: 7))) ==
            .compare(key: "rank", .equal, .int(7)))
        let date = Date(timeIntervalSince1970: 1.5)
        #expect(server(NSPredicate(format: "due < %@", argumentArray: [date]))
            == .compare(key: "due", .less, .date(millisecondsSince1970: 1500)))
        #expect(server(NSPredicate(format: "due < %@", date as NSDate))
            == .compare(key: "due", .less, .date(millisecondsSince1970: 1500)))
    }

    /// A record, its ID and a reference to it all compare as a reference to the record.
    @Test func recordsAndIDsCompareAsReferences() {
        let id = CKRecord.ID(recordName: "folder-1")
        let record = CKRecord(recordType: "Folder", recordID: id)
        let reference = CKRecord.Reference(recordID: id, action: .none)
        let expected = QueryPredicate.compare(key: "folder", .equal, .reference("folder-1"))
        #expect(server(NSPredicate(format: "folder == %@", id)) == expected)
        #expect(server(NSPredicate(format: "folder == %@", record)) == expected)
        #expect(server(NSPredicate(format: "folder == %@", reference)) == expected)
    }

    @Test func beginsWithInAndBetween() {
        #expect(server(NSPredicate(format: "title BEGINSWITH %@", "Gro"))
            == .beginsWith(key: "title", "Gro"))
        #expect(server(NSPredicate(format: "title beginswith 'Gro'"))
            == .beginsWith(key: "title", "Gro"))
        let colours = QueryPredicate.in(key: "colour", [.string("red"), .string("blue")])
        #expect(server(NSPredicate(format: "colour IN { 'red', \"blue\" }")) == colours)
        #expect(server(NSPredicate(format: "colour in %@", argumentArray: [["red", "blue"]]))
            == colours)
        #expect(server(NSPredicate(format: "colour IN %@", ["red", "blue"] as NSArray))
            == colours)
        #expect(server(NSPredicate(format: "colour IN {}")) == .in(key: "colour", []))
        let between = QueryPredicate.and([
            .compare(key: "rank", .greaterOrEqual, .int(1)),
            .compare(key: "rank", .lessOrEqual, .int(3)),
        ])
        #expect(server(NSPredicate(format: "rank BETWEEN { 1, 3 }")) == between)
        #expect(server(NSPredicate(format: "rank between %@", argumentArray: [[1, 3]]))
            == between)
    }

    @Test func conjunctionsWithParentheses() {
        let predicate = NSPredicate(
            format: "(rank > 1 AND title BEGINSWITH 'G') && (done == NO and (rank < 9))")
        #expect(server(predicate) == .and([
            .and([.compare(key: "rank", .greater, .int(1)), .beginsWith(key: "title", "G")]),
            .and([.compare(key: "done", .equal, .int(0)), .compare(key: "rank", .less, .int(9))]),
        ]))
    }

    /// Apple's list, tokenized and negated forms (`CKQuery`'s sample predicates).
    @Test func listTokenAndNegatedFormsParse() {
        let reference = CKRecord.Reference(recordID: CKRecord.ID(recordName: "n1"),
                                           action: .none)
        let cases: [(NSPredicate, QueryPredicate)] = [
            (NSPredicate(format: "ANY favoriteColors = 'red'"),
             .contains(key: "favoriteColors", .string("red"))),
            (NSPredicate(format: "favoriteColors CONTAINS 'red'"),
             .contains(key: "favoriteColors", .string("red"))),
            (NSPredicate(format: "'red' IN favoriteColors"),
             .contains(key: "favoriteColors", .string("red"))),
            (NSPredicate(format: "%K CONTAINS %@", "favoriteColors", "red"),
             .contains(key: "favoriteColors", .string("red"))),
            (NSPredicate(format: "ANY { 'red', 'green' } = favoriteColor"),
             .in(key: "favoriteColor", [.string("red"), .string("green")])),
            (NSPredicate(format: "ANY favoriteColors BEGINSWITH 'red'"),
             .beginsWith(key: "favoriteColors", "red")),
            (NSPredicate(format: "self contains 'after session'"), .tokens("after session")),
            (NSPredicate(format: "allTokens TOKENMATCHES[cdl] %@", "bob smith"),
             .tokens("bob smith")),
            (NSPredicate(format: "NOT (favoriteColor IN { 'red' })"),
             .not(.in(key: "favoriteColor", [.string("red")]))),
            (NSPredicate(format: "!rank == 1 AND rank < 3"),
             .and([.not(.compare(key: "rank", .equal, .int(1))),
                   .compare(key: "rank", .less, .int(3))])),
            (NSPredicate(format: "recordID == %@", reference),
             .compare(key: "recordID", .equal, .reference("n1"))),
        ]
        for (predicate, expected) in cases {
            #expect(server(predicate) == expected)
        }
    }

    /// What CloudKit does not support, or SyncLab does not model, is named with its position.
    @Test func unsupportedPartsAreNamed() {
        let cases: [(String, String, Int)] = [
            ("a == 1 OR b == 2", "OR", 8),
            ("a == 1 || b == 2", "OR", 8),
            ("title ENDSWITH 'x'", "ENDSWITH", 7),
            ("title LIKE 'x*'", "LIKE", 7),
            ("title BEGINSWITH[c] 'x'", "the option [c] of BEGINSWITH", 17),
            ("title ==[cd] 'x'", "the option [cd] of ==", 9),
            ("ANY tags != 'x'", "ANY with !=", 10),
            ("ALL tags == 'x'", "ALL", 1),
            ("self == 'x'", "self with == (self only CONTAINS)", 1),
            ("self CONTAINS 3", "CONTAINS with a value other than a string", 15),
            ("SUBQUERY(tags, $t, $t == 'x').@count > 0", "SUBQUERY", 1),
            ("folder.name == 'x'", "the key path folder.name", 1),
            ("lowercase(title) == 'x'", "the function lowercase()", 1),
            ("creatorUserRecordID == 3",
             "the system field creatorUserRecordID (not modelled)", 1),
            ("title == nil", "a nil value", 10),
            ("title == other", "other where a value belongs (a key compared with a key)", 10),
            ("'x' == title", "'x' where a key belongs (a key must come first)", 1),
            ("rank BEGINSWITH 3", "BEGINSWITH with a value other than a string", 17),
        ]
        for (format, what, position) in cases {
            let error = refusal(NSPredicate(format: format))
            #expect(error == .unsupported(what, at: position), "\(format)")
        }
    }

    @Test func malformedStringsSayWhatAndWhere() {
        let cases: [(String, String, Int)] = [
            ("title == 'open", "unbalanced quote '", 10),
            ("title ==", "a value expected", 9),
            ("title", "an operator expected after title", 6),
            ("(rank > 1", "missing ) for the ( at character 1, found the end", 10),
            ("rank > 1 rank", "unexpected rank", 10),
            ("title == %@", "too few arguments: %@ has none", 10),
            ("rank BETWEEN { 1 }", "BETWEEN needs two values, found 1", 14),
            ("rank IN { 1 2 }", "a , or } expected in the list at character 9, found 2", 13),
            ("title == %s", "unknown format specifier %s", 10),
        ]
        for (format, what, position) in cases {
            let error = refusal(NSPredicate(format: format))
            #expect(error == .malformed(what, at: position), "\(format)")
        }
        #expect(refusal(NSPredicate(format: "rank == %d", "two"))
            == .malformed("%d needs a number, found String", at: 9))
        #expect(refusal(NSPredicate(format: "%K == 1", 3))
            == .malformed("%K needs a string, found Int", at: 1))
    }

    @Test func theMessageQuotesTheStringAndThePosition() {
        let unsupported = NSPredicate.formatPredicates.value(
            for: NSPredicate(format: "a == 1 OR b == 2"))?.refusal
        #expect(unsupported == #"Unsupported predicate "a == 1 OR b == 2": OR at character 8 "#
            + "is not supported in CloudKit queries")
        let malformed = NSPredicate.formatPredicates.value(
            for: NSPredicate(format: "title == 'open"))?.refusal
        #expect(malformed
            == #"Malformed predicate "title == 'open": unbalanced quote ' at character 10"#)
    }

    /// The registry answers for the very instance only: another predicate, even one at a
    /// dead predicate's address, is not taken for it.
    @Test func theParsedFormBelongsToItsInstance() {
        #expect(NSPredicate.formatPredicates.value(for: NSPredicate(value: true)) == nil)
        #expect(NSPredicate.formatPredicates.value(for: NSPredicate { _, _ in true }) == nil)
        for index in 0..<200 {
            let predicate = NSPredicate(format: "rank == %d", index)
            #expect(server(predicate) == .compare(key: "rank", .equal, .int(Int64(index))))
            let block = NSPredicate { _, _ in true }
            #expect(NSPredicate.formatPredicates.value(for: block) == nil)
        }
    }
}
