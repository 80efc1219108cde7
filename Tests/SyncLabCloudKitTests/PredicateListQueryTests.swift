@testable import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// The server evaluates Apple's list, tokenized, negated and system-field predicates on the
/// records it holds.
@Suite struct PredicateListQueryTests {
    static let zoneID = QueryTests.zoneID

    /// n1..n5 (titles and ranks of `PredicateQueryTests`), then tags and bodies on three of
    /// them, saved 1 s apart so their modification dates differ.
    func saveTagged(on phone: SimulatedDevice, in world: SimulatedWorld) throws {
        try PredicateQueryTests().saveNotes(on: phone)
        let extras: [(String, [String], String)] = [
            ("n1", ["red", "blue"], "Milk, eggs and bread after the session"),
            ("n2", ["green"], "Dig the beds"),
            ("n3", ["reddish"], "Read Ångström's notes"),
        ]
        for (name, tags, body) in extras {
            try world.advance(by: .seconds(1))
            try phone.run {
                let database = QueryTests.container.privateCloudDatabase
                let note = try await database.record(for: CKRecord.ID(recordName: name,
                                                                      zoneID: Self.zoneID))
                note["tags"] = tags
                note["body"] = body
                _ = try await database.modifyRecords(saving: [note], deleting: [])
            }
        }
    }

    @Test func listsTokensNegationsAndSystemFieldsSelectTheirRecords() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveTagged(on: phone, in: world)
        let query = PredicateQueryTests()
        let n1 = CKRecord.ID(recordName: "n1", zoneID: Self.zoneID)
        let changed = try phone.run {
            try await QueryTests.container.privateCloudDatabase.record(for: n1).modificationDate
        }
        let first = try #require(changed)
        let cases: [(NSPredicate, [String])] = [
            (NSPredicate(format: "tags CONTAINS 'red'"), ["n1"]),
            (NSPredicate(format: "ANY tags == %@", "green"), ["n2"]),
            (NSPredicate(format: "'blue' IN tags"), ["n1"]),
            (NSPredicate(format: "ANY tags BEGINSWITH 'red'"), ["n1", "n3"]),
            (NSPredicate(format: "self CONTAINS 'SESSION milk'"), ["n1"]),
            (NSPredicate(format: "allTokens TOKENMATCHES[cdl] %@", "angstrom"), ["n3"]),
            (NSPredicate(format: "self CONTAINS 'groceries'"), ["n1", "n4"]),
            (NSPredicate(format: "NOT (rank IN { 1, 2 })"), ["n3", "n4", "n5"]),
            (NSCompoundPredicate(notPredicateWithSubpredicate:
                NSPredicate(format: "tags CONTAINS 'red'")), ["n2", "n3", "n4", "n5"]),
            (NSPredicate(format: "modificationDate > %@", first as NSDate), ["n2", "n3"]),
            (NSPredicate(format: "creationDate < %@", first as NSDate),
             ["n1", "n2", "n3", "n4", "n5"]),
            (NSPredicate(format: "recordID == %@",
                         CKRecord.ID(recordName: "n4", zoneID: Self.zoneID)), ["n4"]),
        ]
        for (predicate, expected) in cases {
            let got = try query.names(predicate, on: phone)
            #expect(got == expected, "\(expected) got \(got)")
        }
    }

    @Test func aQuerySubscriptionCarriesANegationAndAListTest() throws {
        let predicate = NSCompoundPredicate(notPredicateWithSubpredicate:
            NSPredicate(format: "tags CONTAINS 'red'"))
        #expect(CKQuerySubscription.refusal(predicate) == nil)
        #expect(CKQuerySubscription.simulated(predicate)
            == .not(.contains(key: "tags", .string("red"))))
        let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "x"))
        record["tags"] = ["blue"]
        #expect(predicate.evaluate(with: record))
        record["tags"] = ["red"]
        #expect(!predicate.evaluate(with: record))
    }
}
