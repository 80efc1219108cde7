import CloudSim
import Kernel
import Testing

/// Zones: creation as an upsert, deletion by a device or by the `delete-zone` fault, purge by
/// the user (`user-delete-zone`), re-creation, and how requests on a missing zone fail.
@Suite struct ZoneLifecycleTests {
    @Test func theAppZoneDoesNotExistUntilADeviceSavesIt() {
        let fixture = CloudFixture(createZone: false)
        #expect(fixture.cloud.zones(of: "alice").isEmpty)
        let result = fixture.insert(fixture.note("n1"))
        #expect(
            result.map(\.error) == [CloudError(.zoneNotFound, message: "Zone 'App' does not exist")]
        )
        #expect(fixture.fetchZone(after: nil).failure?.code == .zoneNotFound)
        let outcome = fixture.createAppZone(for: fixture.phone)
        #expect(outcome.response == .zonesModified(saved: [fixture.zone], deleted: []))
        #expect(outcome.noteKinds == ["zone.created"])
        #expect(fixture.cloud.zones(of: "alice") == [fixture.zone])
    }

    @Test func savingAnExistingZoneChangesNothing() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let before = fixture.cloud.snapshot()
        let outcome = fixture.createAppZone(for: fixture.laptop)
        #expect(outcome.response == .zonesModified(saved: [fixture.zone], deleted: []))
        #expect(outcome.notes.isEmpty)
        #expect(outcome.pushes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func deletingAZoneDeletesItsRecords() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("n2"))
        let outcome = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone]),
            from: fixture.laptop)
        #expect(outcome.response == .zonesModified(saved: [], deleted: [fixture.zone]))
        #expect(outcome.notes("zone.deleted").first?.detail("records") == "2")
        #expect(fixture.cloud.records(in: fixture.zone).isEmpty)
        #expect(fixture.cloud.zones(of: "alice").isEmpty)
        #expect(fixture.fetchZone(after: nil).failure?.code == .zoneNotFound)
    }

    /// Deleting a zone that does not exist fails for that zone with `zoneNotFound` (a
    /// per-zone error of `CKModifyRecordZonesOperation`), and changes nothing.
    @Test func deletingAMissingZoneFailsForThatZoneWithZoneNotFound() {
        let fixture = CloudFixture(createZone: false)
        let before = fixture.cloud.snapshot()
        let outcome = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone]),
            from: fixture.phone)
        #expect(
            outcome.response
                == .zonesModified(
                    saved: [], deleted: [],
                    failed: [
                        ZoneFailure(
                            zone: fixture.zone,
                            error: CloudError(.zoneNotFound, message: "Zone 'App' does not exist"))
                    ]))
        #expect(outcome.notes.isEmpty)
        #expect(outcome.pushes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func deletingAPurgedZoneFailsWithUserDeletedZoneAndTheOthersStillGo() {
        let fixture = CloudFixture()
        _ = fixture.cloud.userDeleteZone(account: "alice", now: fixture.now)
        let other = ZoneID(owner: "alice", name: "Other")
        fixture.send(.modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        let outcome = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [], delete: [fixture.zone, other]),
            from: fixture.phone)
        guard case .zonesModified(let saved, let deleted, let failed) = outcome.response else {
            Issue.record("no zone answer")
            return
        }
        #expect(saved.isEmpty)
        #expect(deleted == [other])
        #expect(failed.map(\.error.code) == [.userDeletedZone])
        #expect(fixture.cloud.zones(of: "alice").isEmpty)
    }

    @Test func theDeleteZoneFaultActsLikeAnotherDevice() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let databaseToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        let outcome = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        #expect(outcome.response == .zonesModified(saved: [], deleted: [fixture.zone]))
        #expect(outcome.notes("zone.deleted").first?.detail("reason") == "deleted")
        #expect(outcome.notes("zone.deleted").first?.detail("by") == "cloud")
        #expect(fixture.fetchZone(after: nil).failure?.code == .zoneNotFound)
        #expect(fixture.insert(fixture.note("n2")).map(\.code) == [.zoneNotFound])
        let changes = fixture.fetchDatabase(after: databaseToken).databaseChanges
        #expect(changes?.deleted == [ZoneDeletion(zone: fixture.zone, reason: .deleted)])
        #expect(changes?.changed.isEmpty == true)
    }

    @Test func theDeleteZoneFaultOnAMissingZoneDoesNothing() {
        let fixture = CloudFixture(createZone: false)
        let before = fixture.cloud.snapshot()
        let outcome = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        #expect(outcome.response == .zonesModified(saved: [], deleted: []))
        #expect(outcome.noteKinds == ["zone.delete-skipped"])
        #expect(outcome.pushes.isEmpty)
        #expect(fixture.cloud.snapshot() == before)
    }

    @Test func aPurgedZoneAnswersUserDeletedZoneUntilADeviceSavesItAgain() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        let databaseToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        let outcome = fixture.cloud.userDeleteZone(account: "alice", now: fixture.now)
        #expect(outcome.notes("zone.deleted").first?.detail("reason") == "purged")
        let purged = CloudError(.userDeletedZone, message: "Zone was purged by user")
        #expect(fixture.fetchZone(after: nil).failure == purged)
        #expect(fixture.insert(fixture.note("n2")).map(\.error) == [purged])
        #expect(fixture.modify(deletes: ["n1"]).response.items.map(\.error) == [purged])
        let fetched = fixture.send(
            .fetchRecords(scope: .privateDatabase, zone: fixture.zone, names: ["n1"]),
            from: fixture.phone)
        #expect(fetched.response.items.map(\.error) == [purged])
        #expect(fixture.cloud.isPurged(fixture.zone))
        #expect(
            fixture.fetchDatabase(after: databaseToken).databaseChanges?.deleted
                == [ZoneDeletion(zone: fixture.zone, reason: .purged)])

        fixture.createAppZone(for: fixture.laptop)
        #expect(!fixture.cloud.isPurged(fixture.zone))
        #expect(fixture.insert(fixture.note("n2")).first?.savedRecord != nil)
        #expect(fixture.cloud.records(in: fixture.zone).map(\.recordName) == ["n2"])
    }

    @Test func aDeletedAndRecreatedZoneIsReportedDeletedAndChanged() {
        let fixture = CloudFixture()
        let databaseToken = fixture.fetchDatabase(after: nil).databaseChanges?.token
        _ = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        fixture.createAppZone(for: fixture.laptop)
        let changes = fixture.fetchDatabase(after: databaseToken).databaseChanges
        #expect(changes?.deleted == [ZoneDeletion(zone: fixture.zone, reason: .deleted)])
        #expect(changes?.changed == [fixture.zone])
        // From the beginning, only what exists now.
        let fromStart = fixture.fetchDatabase(after: nil).databaseChanges
        #expect(fromStart?.changed == [fixture.zone])
        #expect(fromStart?.deleted.isEmpty == true)
    }

    @Test func theDatabaseFeedReportsZonesWithRecordChangesOnceAndSorted() {
        let fixture = CloudFixture()
        let other = ZoneID(owner: "alice", name: "Aardvark")
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        guard let token = fixture.fetchDatabase(after: nil).databaseChanges?.token else {
            Issue.record("no token")
            return
        }
        #expect(fixture.fetchDatabase(after: token).databaseChanges?.changed.isEmpty == true)
        fixture.insert(fixture.note("n1"), from: fixture.laptop)
        fixture.insert(fixture.note("n2"), from: fixture.laptop)
        fixture.modify(
            saves: [newSave(CloudRecord(recordType: "Note", recordName: "y", zone: other))],
            in: other, from: fixture.laptop)
        let changes = fixture.send(
            .fetchDatabaseChanges(scope: .privateDatabase, token: token), from: fixture.phone)
        guard case .databaseChanges(let changed, let deleted, _, let moreComing) = changes.response
        else {
            Issue.record("no changes")
            return
        }
        #expect(changed == [other, fixture.zone])
        #expect(deleted.isEmpty)
        #expect(!moreComing)
    }

    @Test func aFailedRequestLeavesNoEntryInTheDatabaseFeed() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"))
        guard let token = fixture.fetchDatabase(after: nil).databaseChanges?.token else {
            Issue.record("no token")
            return
        }
        fixture.insert(fixture.note("n1"), from: fixture.laptop)  // insert collision
        #expect(fixture.fetchDatabase(after: token).databaseChanges?.changed.isEmpty == true)
    }
}
