import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `NSPredicate(format:)` in an app's queries and query subscriptions, as Apple's CloudKit
/// examples write them: the server filters, so `resultsLimit` counts matches; a predicate
/// CloudKit does not support fails the query or the save with `invalidArguments` naming the
/// part; `evaluate(with:)` judges a `CKRecord` as the server does.
@Suite(.serialized) struct PredicateQueryTests {
    static let container = QueryTests.container
    static let zoneID = QueryTests.zoneID

    /// Notes `n1`…`n5` with `rank` 1…5 and titles, and one folder.
    func saveNotes(on phone: SimulatedDevice) throws {
        try QueryTests().saveNotes(on: phone)
        try phone.run {
            let database = Self.container.privateCloudDatabase
            let titles = ["Groceries", "Garden", "Books", "groceries", "Travel"]
            var records: [CKRecord] = []
            for (index, title) in titles.enumerated() {
                let id = CKRecord.ID(recordName: "n\(index + 1)", zoneID: Self.zoneID)
                let note = try await database.record(for: id)
                note["title"] = title
                records.append(note)
            }
            try await database.modifyRecords(saving: records, deleting: [])
        }
    }

    /// A predicate handed to the device's code (predicates are immutable once built).
    struct Sent: @unchecked Sendable {
        let predicate: NSPredicate
    }

    /// The record names a query returns, page after page, with the page size `limit`.
    func pages(_ predicate: NSPredicate, limit: Int, on phone: SimulatedDevice) throws
        -> [[String]] {
        let sent = Sent(predicate: predicate)
        return try phone.run { () -> [[String]] in
            let predicate = sent.predicate
            let database = Self.container.privateCloudDatabase
            let query = CKQuery(recordType: "Note", predicate: predicate)
            var (results, cursor) = try await database.records(
                matching: query, inZoneWith: Self.zoneID, resultsLimit: limit)
            var pages = [results.map(\.0.recordName)]
            while let next = cursor {
                (results, cursor) = try await database.records(
                    continuingMatchFrom: next, resultsLimit: limit)
                pages.append(results.map(\.0.recordName))
            }
            return pages
        }
    }

    func names(_ predicate: NSPredicate, on phone: SimulatedDevice) throws -> [String] {
        try pages(predicate, limit: 0, on: phone).flatMap { $0 }
    }

    /// The error a query with the predicate fails with.
    func failure(_ predicate: NSPredicate, on phone: SimulatedDevice) throws -> CKError? {
        let sent = Sent(predicate: predicate)
        return try phone.run { () -> CKError? in
            let predicate = sent.predicate
            let query = CKQuery(recordType: "Note", predicate: predicate)
            do {
                _ = try await Self.container.privateCloudDatabase.records(matching: query)
                return nil
            } catch let error as CKError {
                return error
            }
        }
    }

    @Test func theServerFiltersSoTheLimitCountsMatches() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let predicate = NSPredicate(format: "rank >= %d", 2)
        #expect(try pages(predicate, limit: 2, on: phone) == [["n2", "n3"], ["n4", "n5"]])
    }

    @Test func eachFormSelectsItsRecords() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let cases: [(NSPredicate, [String])] = [
            (NSPredicate(format: "TRUEPREDICATE"), ["n1", "n2", "n3", "n4", "n5"]),
            (NSPredicate(format: "FALSEPREDICATE"), []),
            (NSPredicate(format: "title == %@", "Books"), ["n3"]),
            (NSPredicate(format: "title BEGINSWITH %@", "G"), ["n1", "n2"]),
            (NSPredicate(format: "title IN { 'Travel', 'Books' }"), ["n3", "n5"]),
            (NSPredicate(format: "rank IN %@", argumentArray: [[1, 4]]), ["n1", "n4"]),
            (NSPredicate(format: "rank BETWEEN { 2, 4 }"), ["n2", "n3", "n4"]),
            (NSPredicate(format: "rank > 1 AND (title BEGINSWITH 'G' && rank < 3)"), ["n2"]),
            (NSCompoundPredicate(andPredicateWithSubpredicates: [
                NSPredicate(format: "rank > 1"), NSPredicate(format: "rank < 3"),
            ]), ["n2"]),
        ]
        for (predicate, expected) in cases {
            #expect(try names(predicate, on: phone) == expected, "\(expected)")
        }
    }

    @Test func unsupportedAndMalformedPredicatesFailTheQuery() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let or = try failure(NSPredicate(format: "rank == 1 OR rank == 2"), on: phone)
        #expect(or?.code == .invalidArguments)
        #expect(or?.localizedDescription.contains("OR at character 11") == true)
        let ends = try failure(NSPredicate(format: "title ENDSWITH 'G'"), on: phone)
        #expect(ends?.localizedDescription.contains("ENDSWITH at character 7") == true)
        let malformed = try failure(NSPredicate(format: "title == 'G"), on: phone)
        #expect(malformed?.code == .invalidArguments)
        #expect(malformed?.localizedDescription.contains("unbalanced quote ' at character 10")
            == true)
        let missing = try failure(NSPredicate(format: "title == %@"), on: phone)
        #expect(missing?.localizedDescription.contains("too few arguments") == true)
        // `OR` of format predicates built as a compound is refused as well.
        let compound = NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "rank == 1"), NSPredicate(format: "rank == 2"),
        ])
        #expect(try failure(compound, on: phone)?.code == .invalidArguments)
        // The server refuses an ordering of a reference.
        let reference = CKRecord.Reference(
            recordID: CKRecord.ID(recordName: "f1", zoneID: Self.zoneID), action: .none)
        let ordered = try failure(NSPredicate(format: "folder < %@", reference), on: phone)
        #expect(ordered?.code == .invalidArguments)
    }

    /// The operation reports the refusal through its result block, as any failure.
    @Test func aQueryOperationReportsTheRefusal() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let log = OperationTests.Log()
        try phone.run {
            let query = CKQuery(recordType: "Note",
                                predicate: NSPredicate(format: "rank == 1 || rank == 2"))
            let operation = CKQueryOperation(query: query)
            operation.recordMatchedBlock = { id, _ in log.lines.append(id.recordName) }
            operation.queryResultBlock = { result in
                if case .failure(let error as CKError) = result {
                    log.lines.append("\(error.code.rawValue) \(error.localizedDescription)")
                }
            }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        #expect(log.lines == [#"12 Unsupported predicate "rank == 1 || rank == 2": OR at "#
            + "character 11 is not supported in CloudKit queries"])
    }

    @Test func evaluateJudgesARecordAsTheServerDoes() {
        let note = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "n1"))
        note["title"] = "Groceries"
        note["rank"] = 3
        note["due"] = Date(timeIntervalSince1970: 100)
        #expect(NSPredicate(format: "title BEGINSWITH 'Gro' AND rank > 2").evaluate(with: note))
        #expect(!NSPredicate(format: "rank > %d", 3).evaluate(with: note))
        #expect(NSPredicate(format: "rank BETWEEN %@", argumentArray: [[3, 4]])
            .evaluate(with: note))
        #expect(NSPredicate(format: "due < %@", argumentArray: [Date(timeIntervalSince1970: 101)])
            .evaluate(with: note))
        #expect(!NSPredicate(format: "missing == 1").evaluate(with: note))
        // Apple's idiom, `as CVarArg`, for a date and a Swift array.
        let soon = Date(timeIntervalSince1970: 101)
        #expect(NSPredicate(format: "due < %@", soon as CVarArg).evaluate(with: note))
        #expect(!NSPredicate(format: "due > %@", soon as CVarArg).evaluate(with: note))
        #expect(NSPredicate(format: "rank IN %@", [1, 3] as CVarArg).evaluate(with: note))
        #expect(!NSPredicate(format: "title IN %@", ["Books"] as CVarArg).evaluate(with: note))
        // A C formatter prints them by their descriptions.
        #expect(String(format: "%@", ["Books"] as CVarArg).contains("Books"))
        #expect(String(format: "%@ %@", NSNumber(value: 7), note.recordID).hasPrefix("7 "))
        // A predicate CloudKit does not support, or another object, matches nothing.
        #expect(!NSPredicate(format: "title ENDSWITH 'G'").evaluate(with: note))
        #expect(!NSPredicate(format: "title == 'x'").evaluate(with: ["title": "x"]))
        #expect(NSPredicate(format: "TRUEPREDICATE").evaluate(with: "not a record"))
        #expect(!NSPredicate(format: "FALSEPREDICATE").evaluate(with: note))
    }

    /// A block predicate is still evaluated on the device.
    @Test func aBlockPredicateStaysOnTheDevice() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let block = NSPredicate { object, _ in ((object as? CKRecord)?["rank"] as? Int ?? 0) >= 2 }
        // The device filters the server's page of every note: the first page holds n2 only.
        #expect(try pages(block, limit: 2, on: phone) == [["n2"], ["n3", "n4"], ["n5"]])
    }

    /// A copy is a new block predicate on Linux: the device evaluates it, with the same answer.
    @Test func aCopiedFormatPredicateStillSelectsItsRecords() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try saveNotes(on: phone)
        let copy = try #require(NSPredicate(format: "rank >= %d", 4).copy() as? NSPredicate)
        #expect(try names(copy, on: phone) == ["n4", "n5"])
    }
}
