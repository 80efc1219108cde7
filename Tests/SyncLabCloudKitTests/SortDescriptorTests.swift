import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKQuery.sortDescriptors` made with `NSSortDescriptor(key:ascending:)`, as Apple's examples
/// write them: the server orders the matches, and a cursor continues in that order; a
/// descriptor made otherwise is refused (docs/CLOUDSIM.md *Queries*).
@Suite(.serialized) struct SortDescriptorTests {
    static let container = QueryTests.container
    static let zoneID = QueryTests.zoneID

    /// The record names of every page of a query of notes, `limit` per page.
    func pages(
        _ predicate: String, sortedBy sorts: [(String, Bool)], limit: Int,
        on phone: SimulatedDevice
    ) throws -> [[String]] {
        let keys = sorts.map(\.0)
        let directions = sorts.map(\.1)
        return try phone.run { () -> [[String]] in
            let database = Self.container.privateCloudDatabase
            let query = CKQuery(recordType: "Note", predicate: NSPredicate(format: predicate))
            query.sortDescriptors = zip(keys, directions).map {
                NSSortDescriptor(key: $0, ascending: $1)
            }
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

    @Test func theDescriptorKeepsItsKeyAndDirection() {
        let descriptor = NSSortDescriptor(key: "rank", ascending: false)
        #expect(descriptor.key == "rank")
        #expect(!descriptor.ascending)
        #expect(NSSortDescriptor(keyPath: \CKRecord.recordType, ascending: true).key == nil)
        let low = CKRecord(recordType: "Note")
        low["rank"] = 1
        let high = CKRecord(recordType: "Note")
        high["rank"] = 2
        #expect(descriptor.compare(low, to: high) == .orderedDescending)
        #expect(NSSortDescriptor(key: "rank", ascending: true).compare(low, to: high)
            == .orderedAscending)
    }

    @Test func theServerOrdersMatchesAndTheCursorFollowsTheOrder() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try QueryTests().saveNotes(on: phone)
        #expect(try pages("TRUEPREDICATE", sortedBy: [("rank", false)], limit: 2, on: phone)
            == [["n5", "n4"], ["n3", "n2"], ["n1"]])
        #expect(try pages("rank < 5", sortedBy: [("rank", false)], limit: 3, on: phone)
            == [["n4", "n3", "n2"], ["n1"]])
        // Records without the key come first in ascending order, then by name.
        #expect(try pages("TRUEPREDICATE", sortedBy: [("missing", true), ("rank", false)],
            limit: 0, on: phone) == [["n5", "n4", "n3", "n2", "n1"]])
    }

    @Test func aDescriptorWithoutAKeyIsRefused() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("phone", "alice")])
        let phone = world.device("phone")
        try QueryTests().saveNotes(on: phone)
        let refused = #expect(throws: CKError.self) {
            try phone.run {
                let query = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
                query.sortDescriptors = [
                    NSSortDescriptor(key: "rank", ascending: true),
                    NSSortDescriptor(key: nil, ascending: true),
                ]
                _ = try await Self.container.privateCloudDatabase.records(matching: query)
            }
        }
        #expect(refused?.code == .invalidArguments)
    }
}
