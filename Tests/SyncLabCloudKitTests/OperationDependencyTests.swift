import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// CloudKit operations as Foundation operations: dependencies, `start()`, identifiers, and
/// the calls the simulation cannot run in simulated time, which stop the run with a reason.
@Suite struct OperationDependencyTests {
    static let container = CKContainer(identifier: "iCloud.test.dependencies")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    func makeWorld() throws -> SimulatedWorld {
        try SimulatedWorld(seed: 5, devices: [("phone", "alice")])
    }

    static func zones(_ log: Log) -> CKModifyRecordZonesOperation {
        let operation = CKModifyRecordZonesOperation(
            recordZonesToSave: [CKRecordZone(zoneID: zoneID)], recordZoneIDsToDelete: nil)
        operation.modifyRecordZonesResultBlock = { result in
            log.lines.append("zones \(Self.outcome(result))")
        }
        return operation
    }

    static func records(_ log: Log) -> CKModifyRecordsOperation {
        let record = CKRecord(recordType: "Note",
            recordID: CKRecord.ID(recordName: "n1", zoneID: zoneID))
        record["title"] = "one"
        let operation = CKModifyRecordsOperation(recordsToSave: [record], recordIDsToDelete: nil)
        operation.modifyRecordsResultBlock = { result in
            log.lines.append("records \(Self.outcome(result))")
        }
        return operation
    }

    static func outcome(_ result: Result<Void, any Error>) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error as CKError): "\(error.code)"
        case .failure(let error): "\(error)"
        }
    }

    /// The records operation made to depend on the zone's, then both added to the private
    /// database, the records first; `configure` runs before they are added.
    @discardableResult
    static func addedRecordsFirst(
        _ log: Log,
        configure: (CKModifyRecordZonesOperation, CKModifyRecordsOperation) -> Void = { _, _ in }
    ) -> (CKModifyRecordZonesOperation, CKModifyRecordsOperation) {
        let database = container.privateCloudDatabase
        let zones = Self.zones(log)
        let records = Self.records(log)
        records.addDependency(zones)
        configure(zones, records)
        database.add(records)
        database.add(zones)
        return (zones, records)
    }

    @Test func anOperationAddedFirstWaitsForItsDependency() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let (zones, records) = Self.addedRecordsFirst(log) { zones, records in
                #expect(!records.isReady && zones.isReady)
                zones.completionBlock = { log.lines.append("zones completion") }
            }
            #expect(zones.dependencies.isEmpty && records.dependencies == [zones])
        }
        try world.settle()
        #expect(log.lines == ["zones ok", "zones completion", "records ok"])
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").map(\.recordID.recordName)
            == ["n1"])
    }

    @Test func withoutTheDependencyTheSameOperationsRace() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let database = Self.container.privateCloudDatabase
            database.add(Self.records(log))
            database.add(Self.zones(log))
        }
        try world.settle()
        #expect(log.lines.contains("records partialFailure"), "\(log.lines)")
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").isEmpty)
    }

    @Test func aCancelledWaitingOperationEndsAtOnceAndItsDependencyStillRuns() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let (_, records) = Self.addedRecordsFirst(log)
            records.cancel()
            #expect(records.isReady, "a cancelled operation is ready, as Foundation's")
        }
        try world.settle()
        #expect(log.lines == ["records operationCancelled", "zones ok"])
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").isEmpty)
    }

    @Test func startRunsOnTheOperationsDatabaseOrTheDefaultPrivateOne() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let zones = Self.zones(log)
            zones.configuration.container = Self.container
            zones.start()
            let records = Self.records(log)
            records.database = Self.container.privateCloudDatabase
            records.addDependency(zones)
            records.start()
        }
        try world.settle()
        #expect(log.lines == ["zones ok", "records ok"])
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").count == 1)
    }

    @Test func operationIDsCountTheOperationsOfADevice() throws {
        let world = try makeWorld()
        let ids = try world.device("phone").run { () -> [String] in
            let log = Log()
            return [Self.zones(log).operationID, Self.records(log).operationID]
        }
        #expect(ids == ["phone-operation-1", "phone-operation-2"])
    }

    @Test func aFinishedBlockOperationIsADependencyLikeAnyOther() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let block = BlockOperation { log.lines.append("block") }
            let zones = Self.zones(log)
            zones.addDependency(block)
            block.start()
            Self.container.privateCloudDatabase.add(zones)
        }
        try world.settle()
        #expect(log.lines == ["block", "zones ok"])
    }

    @Test func anUnfinishedOperationOfAnotherClassStopsTheRun() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let error = #expect(throws: SimulatedWorld.Failure.self) {
            try phone.run {
                let zones = Self.zones(Log())
                zones.addDependency(BlockOperation {})
                Self.container.privateCloudDatabase.add(zones)
            }
            try world.settle()
        }
        #expect(error?.description.contains(
            "CKModifyRecordZonesOperation depends on a BlockOperation that has not finished")
            == true, "\(String(describing: error))")
    }

    @Test func waitingUntilFinishedStopsTheRunInsteadOfBlockingIt() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let error = #expect(throws: SimulatedWorld.Failure.self) {
            try phone.run {
                let zones = Self.zones(Log())
                Self.container.privateCloudDatabase.add(zones)
                zones.waitUntilFinished()
            }
        }
        #expect(error?.description.contains("waitUntilFinished() would block") == true,
            "\(String(describing: error))")
    }

    @Test func anOperationAddedTwiceStopsTheRun() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let log = Log()
        let error = #expect(throws: SimulatedWorld.Failure.self) {
            try phone.run {
                let zones = Self.zones(log)
                Self.container.privateCloudDatabase.add(zones)
                Self.container.privateCloudDatabase.add(zones)
            }
            try world.settle()
        }
        #expect(error?.description.contains("added or started a second time") == true,
            "\(String(describing: error))")
    }

    @Test func aSerialOperationQueueRunsOneAfterTheOtherOnTheDevice() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let zones = Self.zones(log)
            zones.database = Self.container.privateCloudDatabase
            let records = Self.records(log)
            records.database = Self.container.privateCloudDatabase
            queue.addOperation(zones)
            queue.addOperation(records)
            #expect(records.dependencies.isEmpty, "the queue's order is not a dependency")
        }
        try world.settle()
        #expect(log.lines == ["zones ok", "records ok"])
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").count == 1)
    }

    @Test func aConcurrentOperationQueueRunsThemTogether() throws {
        let world = try makeWorld()
        let log = Log()
        try world.device("phone").run {
            let queue = OperationQueue()
            let records = Self.records(log)
            records.database = Self.container.privateCloudDatabase
            let zones = Self.zones(log)
            zones.database = Self.container.privateCloudDatabase
            queue.addOperations([records, zones], waitUntilFinished: false)
        }
        try world.settle()
        #expect(log.lines.contains("records partialFailure"), "\(log.lines)")
    }

    @Test func aQueueThatWouldBlockOrHoldStopsTheRun() throws {
        for suspended in [false, true] {
            let world = try makeWorld()
            let phone = world.device("phone")
            let error = #expect(throws: SimulatedWorld.Failure.self) {
                try phone.run {
                    let queue = OperationQueue()
                    queue.isSuspended = suspended
                    queue.addOperations([Self.zones(Log())], waitUntilFinished: !suspended)
                }
                try world.settle()
            }
            let reason = suspended ? "a suspended OperationQueue" : "would block the thread"
            #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        }
    }

    @Test func aStartFromAnotherThreadStopsTheDevicesNextRun() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let log = Log()
        let zones = try phone.run { Self.zones(log) }
        // The test's own thread is not the device's: as an OperationQueue's thread would.
        zones.start()
        let error = #expect(throws: SimulatedWorld.Failure.self) {
            try phone.run {}
        }
        #expect(error?.description.contains("an OperationQueue") == true,
            "\(String(describing: error))")
        #expect(log.lines.isEmpty)
    }
}
