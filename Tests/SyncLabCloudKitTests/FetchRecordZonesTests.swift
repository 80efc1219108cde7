import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKFetchRecordZonesOperation` and `recordZones(for:)` as an app uses them: a result per
/// zone in the order asked, a missing zone as its own `zoneNotFound`, the result block last.
@Suite struct FetchRecordZonesTests {
    static let container = CKContainer(identifier: "iCloud.test.zones")
    static let notes = CKRecordZone.ID(zoneName: "Notes")
    static let tags = CKRecordZone.ID(zoneName: "Tags")
    static let missing = CKRecordZone.ID(zoneName: "Missing")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static func deviceName() -> String { DeviceRuntime.current?.device ?? "no device" }

    func makeWorld() throws -> SimulatedWorld {
        let world = try SimulatedWorld(seed: 4, devices: [("phone", "alice"), ("laptop", "alice")])
        try world.device("phone").run {
            _ = try await Self.container.privateCloudDatabase.modifyRecordZones(
                saving: [CKRecordZone(zoneID: Self.tags), CKRecordZone(zoneID: Self.notes)],
                deleting: [])
        }
        return world
    }

    @Test func zonesByIDGiveAResultEachInOrderAndAPartialFailure() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("laptop").run {
            let operation = CKFetchRecordZonesOperation(
                recordZoneIDs: [Self.tags, Self.missing, Self.notes])
            operation.perRecordZoneResultBlock = { id, result in
                switch result {
                case .success(let zone): log.lines.append("\(id.zoneName) \(zone.zoneID.zoneName)")
                case .failure(let error as CKError): log.lines.append("\(id.zoneName) \(error.code)")
                case .failure: log.lines.append("\(id.zoneName) ?")
                }
            }
            operation.fetchRecordZonesResultBlock = { result in
                if case .failure(let error as CKError) = result {
                    log.lines.append("result \(error.code) on \(Self.deviceName()) "
                        + "\(error.partialErrorsByItemID?.count ?? 0)")
                }
            }
            operation.fetchRecordZonesCompletionBlock = { zones, error in
                log.lines.append("completion \(zones?.keys.map(\.zoneName).sorted() ?? []) "
                    + "\((error as? CKError)?.code == .partialFailure)")
            }
            operation.completionBlock = { log.lines.append("done") }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        #expect(log.lines == ["Tags Tags", "Missing zoneNotFound", "Notes Notes",
            "result partialFailure on laptop 1", "completion [\"Notes\", \"Tags\"] true", "done"])
    }

    @Test func fetchAllRecordZonesGivesEveryZoneOfTheDatabase() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("laptop").run {
            let operation = CKFetchRecordZonesOperation.fetchAllRecordZonesOperation()
            operation.perRecordZoneResultBlock = { id, result in
                log.lines.append("\(id.zoneName) \((try? result.get()) != nil)")
            }
            operation.fetchRecordZonesResultBlock = { result in
                log.lines.append("result \((try? result.get()) != nil) on \(Self.deviceName())")
            }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        // The private database's default zone is always there (Apple, CKRecordZone).
        #expect(log.lines == [
            "_defaultZone true", "Notes true", "Tags true", "result true on laptop"])
    }

    @Test func recordZonesForIDsGivesAResultPerZone() throws {
        let world = try makeWorld()
        let lines = try world.device("laptop").run {
            let results = try await Self.container.privateCloudDatabase.recordZones(
                for: [Self.notes, Self.missing])
            return results.map { id, result in
                "\(id.zoneName) " + ((try? result.get()).map { $0.zoneID.zoneName }
                    ?? "\(((result.failure) as? CKError)?.code.rawValue ?? 0)")
            }.sorted()
        }
        #expect(lines == ["Missing 26", "Notes Notes"])
        // An error that is not a zone's is the call's.
        try world.device("laptop").goOffline()
        let offline = try world.device("laptop").run {
            do {
                _ = try await Self.container.privateCloudDatabase.recordZones(for: [Self.notes])
                return "no error"
            } catch let error as CKError {
                return "\(error.code)"
            }
        }
        #expect(offline == "networkUnavailable")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
