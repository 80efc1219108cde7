import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `modifyRecords(saving:deleting:…)` across zones as an app sees it: Apple's operation is one
/// request, so the private database's saves in several zones are applied together; when a
/// further request of the call (deletes in another zone) fails as a whole, the results of
/// what was applied are still returned, the failed items carrying the error.
@Suite struct ModifyRecordsAcrossZonesTests {
    static let container = CKContainer(identifier: "iCloud.test.zones.modify")
    static let zoneA = CKRecordZone.ID(zoneName: "A")
    static let zoneB = CKRecordZone.ID(zoneName: "B")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static func note(_ name: String, in zone: CKRecordZone.ID) -> CKRecord {
        let note = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: name,
            zoneID: zone))
        note["title"] = name
        return note
    }

    /// A world whose phone made zones A and B with a note each (`a1`, `b1`).
    func makeWorld() throws -> SimulatedWorld {
        let world = try SimulatedWorld(seed: 3, devices: [("phone", "alice")])
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            _ = try await database.modifyRecordZones(
                saving: [CKRecordZone(zoneID: Self.zoneA), CKRecordZone(zoneID: Self.zoneB)],
                deleting: [])
            try await database.modifyRecords(
                saving: [Self.note("a1", in: Self.zoneA), Self.note("b1", in: Self.zoneB)],
                deleting: [])
        }
        return world
    }

    static func names(_ world: SimulatedWorld, _ zone: String) -> [String] {
        world.cloudRecords(zoneName: zone, account: "alice").map(\.recordID.recordName)
    }

    /// Starts `body` as a task of the phone and lets time pass until the cloud holds `name`.
    func start(
        _ world: SimulatedWorld, until name: String, in zone: String,
        _ body: @escaping @Sendable () async -> Void
    ) throws {
        try world.device("phone").run { Task { await body() } }
        while !Self.names(world, zone).contains(name) {
            try world.advance(by: .milliseconds(10))
        }
    }

    @Test func savesInSeveralZonesAreOneRequest() throws {
        let world = try makeWorld()
        try start(world, until: "a2", in: "A") {
            _ = try? await Self.container.privateCloudDatabase.modifyRecords(
                saving: [Self.note("a2", in: Self.zoneA), Self.note("b2", in: Self.zoneB)],
                deleting: [])
        }
        // Applied at the same instant as a2: the same request.
        #expect(Self.names(world, "B") == ["b1", "b2"])
    }

    @Test func aLaterRequestFailingAsAWholeKeepsTheResultsOfTheFirst() throws {
        let world = try makeWorld()
        let log = Log()
        try start(world, until: "a2", in: "A") {
            do {
                let results = try await Self.container.privateCloudDatabase.modifyRecords(
                    saving: [Self.note("a2", in: Self.zoneA)],
                    deleting: [CKRecord.ID(recordName: "a1", zoneID: Self.zoneA),
                               CKRecord.ID(recordName: "b1", zoneID: Self.zoneB)])
                for (id, result) in results.saveResults {
                    log.lines.append("save \(id.recordName) \(Self.outcome(result))")
                }
                for (id, result) in results.deleteResults {
                    log.lines.append("delete \(id.recordName) \(Self.outcome(result))")
                }
            } catch {
                log.lines.append("thrown \((error as? CKError)?.code.rawValue ?? -1)")
            }
        }
        // The deletes of zone B go in a second request: the account is throttled before it.
        try world.perform("cloud: throttle alice for 30s")
        try world.settle()
        let limited = CKError.Code.requestRateLimited.rawValue
        #expect(log.lines.sorted() == ["delete a1 ok", "delete b1 \(limited)", "save a2 ok"])
        #expect(Self.names(world, "A") == ["a2"])
        #expect(Self.names(world, "B") == ["b1"])
    }

    static func outcome<Value>(_ result: Result<Value, any Error>) -> String {
        switch result {
        case .success: return "ok"
        case .failure(let error): return "\((error as? CKError)?.code.rawValue ?? -1)"
        }
    }
}
