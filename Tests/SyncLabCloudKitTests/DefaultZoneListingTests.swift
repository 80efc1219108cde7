import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// Listing the zones of a database as an app sees it: the private database always has its
/// default zone (Apple, CKRecordZone: "The public and private databases each have a single
/// default zone"), so `allRecordZones()` lists it, even before the app made a zone; the
/// shared database has none.
@Suite struct DefaultZoneListingTests {
    static let container = CKContainer(identifier: "iCloud.test.default.zone")

    @Test func thePrivateDatabaseListsItsDefaultZone() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let lists = try world.device("phone").run { () -> [[String]] in
            let database = Self.container.privateCloudDatabase
            let before = try await database.allRecordZones().map(\.zoneID.zoneName)
            try await database.save(CKRecordZone(zoneName: "Notes"))
            let after = try await database.allRecordZones().map(\.zoneID.zoneName)
            return [before, after]
        }
        #expect(lists == [["_defaultZone"], ["_defaultZone", "Notes"]])
    }

    @Test func theSharedDatabaseHasNoDefaultZone() throws {
        let world = try SimulatedWorld(seed: 2, devices: [("phone", "alice")])
        let zones = try world.device("phone").run {
            try await Self.container.sharedCloudDatabase.allRecordZones().map(\.zoneID.zoneName)
        }
        #expect(zones.isEmpty)
    }
}
