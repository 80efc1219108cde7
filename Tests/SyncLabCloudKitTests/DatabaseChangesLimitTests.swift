import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `resultsLimit` of the database's changes as an app sees it (Apple,
/// `databaseChanges(since:resultsLimit:)`: "The maximum number of changes to return";
/// `CKFetchDatabaseChangesOperation.resultsLimit`: at the limit the token says more results
/// are available): pages of at most the limit, `moreComing` until every zone was given.
@Suite struct DatabaseChangesLimitTests {
    static let container = CKContainer(identifier: "iCloud.test.limit")
    static let names = ["A", "B", "C"]

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    func makeWorld() throws -> SimulatedWorld {
        let world = try SimulatedWorld(seed: 5, devices: [("phone", "alice"), ("laptop", "alice")])
        try world.device("phone").run {
            _ = try await Self.container.privateCloudDatabase.modifyRecordZones(
                saving: Self.names.map { CKRecordZone(zoneName: $0) }, deleting: [])
        }
        return world
    }

    @Test func eachCallGivesAtMostTheLimitAndSaysMoreIsComing() throws {
        let world = try makeWorld()
        let pages = try world.device("laptop").run { () -> [String] in
            let database = Self.container.privateCloudDatabase
            var pages: [String] = []
            var token: CKServerChangeToken?
            var more = true
            while more {
                let page = try await database.databaseChanges(since: token, resultsLimit: 2)
                pages.append(page.modifications.map(\.zoneID.zoneName).joined(separator: ",")
                    + (page.moreComing ? " more" : ""))
                // The token survives archiving with the zones it still holds.
                let data = try NSKeyedArchiver.archivedData(
                    withRootObject: page.changeToken, requiringSecureCoding: true)
                token = try NSKeyedUnarchiver.unarchivedObject(
                    ofClass: CKServerChangeToken.self, from: data)
                more = page.moreComing
            }
            let after = try await database.databaseChanges(since: token, resultsLimit: 2)
            pages.append("\(after.modifications.count) \(after.moreComing)")
            return pages
        }
        #expect(pages == ["A,B more", "C", "0 false"])
    }

    @Test func aZoneDeletedBeforeItsTurnIsReportedDeleted() throws {
        let world = try makeWorld()
        let laptop = world.device("laptop")
        let first = try laptop.run { () -> Data in
            let page = try await Self.container.privateCloudDatabase.databaseChanges(
                since: nil, resultsLimit: 1)
            return try NSKeyedArchiver.archivedData(
                withRootObject: page.changeToken, requiringSecureCoding: true)
        }
        try world.device("phone").run {
            _ = try await Self.container.privateCloudDatabase.deleteRecordZone(
                withID: CKRecordZone.ID(zoneName: "C"))
        }
        let rest = try laptop.run { () -> [String] in
            var token = try NSKeyedUnarchiver.unarchivedObject(
                ofClass: CKServerChangeToken.self, from: first)
            var lines: [String] = []
            var more = true
            while more {
                let page = try await Self.container.privateCloudDatabase.databaseChanges(
                    since: token, resultsLimit: 1)
                lines += page.modifications.map { "changed \($0.zoneID.zoneName)" }
                lines += page.deletions.map { "deleted \($0.zoneID.zoneName)" }
                token = page.changeToken
                more = page.moreComing
            }
            return lines
        }
        #expect(rest == ["changed B", "deleted C"])
    }

    @Test func theOperationPagesByItsLimit() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("laptop").run {
            let operation = CKFetchDatabaseChangesOperation(previousServerChangeToken: nil)
            operation.resultsLimit = 1
            operation.recordZoneWithIDChangedBlock = { log.lines.append($0.zoneName) }
            operation.changeTokenUpdatedBlock = { _ in log.lines.append("token") }
            operation.fetchDatabaseChangesResultBlock = { result in
                if case .success(let page) = result { log.lines.append("end \(page.moreComing)") }
            }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        #expect(log.lines == ["A", "token", "B", "token", "C", "end false"])
    }
}
