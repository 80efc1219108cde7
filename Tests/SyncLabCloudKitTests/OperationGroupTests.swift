import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// `CKOperationGroup`, `CKOperation.Configuration` and `configuredWith` as an app uses them:
/// Apple's API compiles, the values set are kept, and the calls made under them run as any
/// others (the simulation models no QoS, timeouts or groups).
@Suite struct OperationGroupTests {
    static let container = CKContainer(identifier: "iCloud.test.groups")
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test func aGroupAndAConfigurationAreKeptOnTheOperation() throws {
        let world = try SimulatedWorld(seed: 6, devices: [("phone", "alice")])
        let log = Log()
        try world.device("phone").run {
            let group = CKOperationGroup()
            group.name = "Import"
            group.quantity = 2
            group.expectedSendSize = .megabytes
            group.expectedReceiveSize = .kilobytes
            group.defaultConfiguration.isLongLived = true
            let configuration = CKOperation.Configuration()
            configuration.timeoutIntervalForRequest = 5
            configuration.qualityOfService = .userInitiated
            configuration.allowsCellularAccess = false
            let operation = CKModifyRecordZonesOperation(
                recordZonesToSave: [CKRecordZone(zoneID: Self.zoneID)], recordZoneIDsToDelete: nil)
            operation.group = group
            operation.configuration = configuration
            operation.modifyRecordZonesResultBlock = { result in
                log.lines.append("saved \((try? result.get()) != nil)")
                log.lines.append("\(operation.group?.name ?? "") \(operation.group?.quantity ?? 0)")
                log.lines.append(operation.group?.operationGroupID ?? "")
                log.lines.append("\(operation.configuration.timeoutIntervalForRequest)")
            }
            Self.container.privateCloudDatabase.add(operation)
        }
        try world.settle()
        #expect(log.lines == ["saved true", "Import 2", "phone-group-1", "5.0"])
    }

    @Test func callsUnderConfiguredWithRunAsAnyOthers() throws {
        let world = try SimulatedWorld(seed: 6, devices: [("phone", "alice")])
        let names = try world.device("phone").run { () -> [String] in
            let configuration = CKOperation.Configuration()
            configuration.timeoutIntervalForResource = 10
            let group = CKOperationGroup()
            group.expectedSendSize = .hundredsOfGigabytes
            return try await Self.container.privateCloudDatabase.configuredWith(
                configuration: configuration, group: group
            ) { database in
                try await database.save(CKRecordZone(zoneID: Self.zoneID))
                return try await database.allRecordZones().map(\.zoneID.zoneName)
            }
        }
        #expect(names == ["_defaultZone", "Notes"])
    }

    @Test func syncEngineOptionsCarryAGroup() throws {
        let group = CKOperationGroup()
        group.name = "Refresh"
        var fetch = CKSyncEngine.FetchChangesOptions()
        fetch.operationGroup = group
        var send = CKSyncEngine.SendChangesOptions(scope: .zoneIDs([Self.zoneID]))
        send.operationGroup = group
        #expect(fetch.operationGroup.name == "Refresh")
        #expect(send.operationGroup === fetch.operationGroup)
        // The group is not compared: options with the same scope are equal.
        #expect(fetch == CKSyncEngine.FetchChangesOptions())
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: group, requiringSecureCoding: true)
        let decoded = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: CKOperationGroup.self, from: data)
        #expect(decoded?.name == "Refresh")
        #expect(decoded?.operationGroupID == group.operationGroupID)
    }
}
