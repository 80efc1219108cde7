import CloudSim
import Kernel
import Testing

/// Issue 13, the rows Apple's documentation settles that were open (docs/CLOUDSIM.md rows
/// 43–46 and *Faults*): zone faults on every zone of an account or on one named zone, the
/// encrypted-data reset, the optional parent touch, retry-after on zone fetches and on
/// per-item delete failures.
@Suite struct AppleDocumentedTests {
    /// A second custom zone of alice, as an engine with one zone per collection names it.
    static func otherZone(_ fixture: CloudFixture) -> ZoneID {
        ZoneID(owner: "alice", name: "Collection-f1")
    }

    static func twoZones() -> CloudFixture {
        let fixture = CloudFixture()
        let other = otherZone(fixture)
        fixture.send(.modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        fixture.insert(fixture.note("n1"))
        fixture.modify(
            saves: [newSave(CloudRecord(recordType: "Note", recordName: "f1", zone: other))],
            in: other)
        return fixture
    }

    // MARK: Zone faults act on every zone of the account (item 12)

    @Test func deleteZoneDeletesEveryCustomZoneOfTheAccount() {
        let fixture = Self.twoZones()
        let other = Self.otherZone(fixture)
        let token = fixture.fetchDatabase(after: nil).databaseChanges?.token
        let outcome = fixture.cloud.deleteZone(account: "alice", now: fixture.now)
        #expect(outcome.response == .zonesModified(saved: [], deleted: [fixture.zone, other].sorted()))
        #expect(outcome.noteKinds == ["zone.deleted", "zone.deleted"])
        #expect(fixture.cloud.zones(of: "alice").isEmpty)
        let deleted = fixture.fetchDatabase(after: token).databaseChanges?.deleted
        #expect(deleted?.map(\.zone) == [fixture.zone, other].sorted())
        #expect(deleted?.map(\.reason) == [.deleted, .deleted])
        // The default zone is never deleted ([CKRecordZone] `default()`).
        #expect(fixture.cloud.zones(of: "bob").isEmpty)
    }

    @Test func zoneFaultsNeverDeleteTheDefaultZone() {
        let fixture = CloudFixture(createZone: false)
        let defaultZone = ZoneID.defaultZone(of: "alice")
        fixture.modify(saves: [newSave(CloudRecord(recordType: "Note", recordName: "d1", zone: defaultZone))],
                       in: defaultZone)
        let outcome = fixture.cloud.userDeleteZone(account: "alice", now: fixture.now)
        #expect(outcome.noteKinds == ["zone.delete-skipped"])
        #expect(outcome.notes.first?.detail("zone") == fixture.zone.description)
        #expect(fixture.cloud.record(named: "d1", in: defaultZone) != nil)
        let named = fixture.cloud.deleteZone(defaultZone, reason: .deleted, now: fixture.now)
        #expect(named.noteKinds == ["zone.delete-skipped"])
    }

    @Test func aNamedZoneFaultDeletesOnlyThatZone() {
        let fixture = Self.twoZones()
        let other = Self.otherZone(fixture)
        let outcome = fixture.cloud.deleteZone(other, reason: .purged, now: fixture.now)
        #expect(outcome.response == .zonesModified(saved: [], deleted: [other]))
        #expect(fixture.cloud.zones(of: "alice") == [fixture.zone])
        #expect(fixture.cloud.isPurged(other))
        #expect(fixture.fetchZone(after: nil, zone: other).failure?.code == .userDeletedZone)
        #expect(fixture.fetchZone(after: nil).page != nil)
        // A zone that is not live is skipped.
        let again = fixture.cloud.deleteZone(other, reason: .deleted, now: fixture.now)
        #expect(again.noteKinds == ["zone.delete-skipped"])
    }

    // MARK: encryptedDataReset (item 9)

    /// [CKFetchDatabaseChangesOperation]: a zone deleted because the user reset their
    /// encrypted data is reported with the reason `encryptedDataReset`; [CKError] `zoneNotFound`
    /// then carries `CKErrorUserDidResetEncryptedDataKey`; the zone can be created again.
    @Test func resetEncryptedDataDeletesTheZonesWithThatReason() {
        let fixture = Self.twoZones()
        let other = Self.otherZone(fixture)
        let token = fixture.fetchDatabase(after: nil).databaseChanges?.token
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        let outcome = fixture.cloud.resetEncryptedData(account: "alice", now: fixture.now)
        #expect(outcome.pushes == ["laptop"])
        #expect(outcome.notes("zone.deleted").map { $0.detail("reason") } == ["encryptedDataReset", "encryptedDataReset"])
        let deleted = fixture.fetchDatabase(after: token).databaseChanges?.deleted
        #expect(deleted == [fixture.zone, other].sorted().map { ZoneDeletion(zone: $0, reason: .encryptedDataReset) })
        let error = fixture.fetchZone(after: nil).failure
        #expect(error?.code == .zoneNotFound)
        #expect(error?.userDidResetEncryptedData == true)
        #expect(fixture.insert(fixture.note("n2")).first?.error?.userDidResetEncryptedData == true)
        // Not a purge: a device creates the zone again and uploads its local copy.
        #expect(!fixture.cloud.isPurged(fixture.zone))
        fixture.createAppZone(for: fixture.phone)
        #expect(fixture.insert(fixture.note("n1")).first?.savedRecord != nil)
        _ = fixture.cloud.deleteZone(fixture.zone, reason: .deleted, now: fixture.now)
        #expect(fixture.fetchZone(after: nil).failure?.userDidResetEncryptedData == false)
    }

    // MARK: Saving a child and its parent's change tag (item 5)

    /// [CKRecord] `recordChangeTag`: saving a child *can* change the parent's tag. Off by
    /// default (Apple does not say when); on, the parent gets a new tag and re-enters the feed.
    @Test func savingAChildLeavesTheParentsTagByDefault() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("p"))
        let tag = fixture.serverRecord("p").changeTag
        fixture.insert(fixture.note("c", parent: "p"))
        #expect(fixture.serverRecord("p").changeTag == tag)
    }

    @Test func savingAChildCanChangeItsParentsTag() {
        var configuration = CloudConfiguration(accounts: ["alice"], appZoneName: "App")
        configuration.childSaveChangesParentTag = true
        let cloud = CloudService(configuration: configuration)
        let phone = CloudClient(device: "phone", account: "alice")
        let zone = cloud.appZone(of: "alice")
        _ = cloud.handle(.modifyZones(scope: .privateDatabase, save: [zone], delete: []), from: phone, now: .zero)
        func save(_ records: [CloudRecord]) -> CloudOutcome {
            cloud.handle(
                .modifyRecords(scope: .privateDatabase, zone: zone, saves: records.map(newSave), deletes: [],
                               policy: .ifServerRecordUnchanged, atomic: false),
                from: phone, now: .zero)
        }
        _ = save([CloudRecord(recordType: "Note", recordName: "p", zone: zone)])
        let before = cloud.record(named: "p", in: zone)
        let outcome = save([CloudRecord(recordType: "Note", recordName: "c", zone: zone, parent: "p")])
        let after = cloud.record(named: "p", in: zone)
        #expect(after?.changeTag != before?.changeTag)
        #expect(after?.fields == before?.fields)
        #expect(outcome.notes("record.parent-touched").map { $0.detail("child") } == ["c"])
        // The old tag is now stale: the parent's next save under ifServerRecordUnchanged conflicts.
        let stale = cloud.handle(
            .modifyRecords(scope: .privateDatabase, zone: zone,
                           saves: [RecordSave(record: before!, changedKeys: [])], deletes: [],
                           policy: .ifServerRecordUnchanged, atomic: false),
            from: phone, now: .zero)
        #expect(stale.response.items.first?.code == .serverRecordChanged)
        // A parent saved in the same request is not touched again.
        let both = save([CloudRecord(recordType: "Note", recordName: "q", zone: zone),
                         CloudRecord(recordType: "Note", recordName: "d", zone: zone, parent: "q")])
        #expect(both.notes("record.parent-touched").isEmpty)
    }

    // MARK: Retry-after on zone fetches and per-item delete failures (item 14)

    /// [CKError.Code] `zoneBusy`: retry after a few seconds, honouring the retry-after.
    @Test func aBusyZoneFailsItsFetchesWithRetryAfter() {
        let fixture = CloudFixture()
        fixture.cloud.zoneBusy(fixture.zone, until: fixture.now + .seconds(5))
        let error = fixture.fetchZone(after: nil).failure
        #expect(error?.code == .zoneBusy)
        #expect(error?.retryAfter != nil && error!.retryAfter! <= .seconds(5))
        // The busy zone is alice's: bob's zone of that name (never made) is not; writes pass.
        #expect(fixture.fetchZone(after: nil, from: fixture.desktop).failure?.code
            == .zoneNotFound)
        #expect(fixture.insert(fixture.note("n1")).first?.savedRecord != nil)
        fixture.now = fixture.now + .seconds(5)
        #expect(fixture.fetchZone(after: nil).page != nil)
    }

    @Test func zoneFetchesCarryTheRetryAfterOfThrottlesAndOutages() {
        let fixture = CloudFixture()
        fixture.cloud.throttle(account: "alice", until: fixture.now + .seconds(30))
        let throttled = fixture.fetchZone(after: nil).failure
        #expect(throttled?.code == .requestRateLimited)
        #expect(throttled?.retryAfter == .seconds(30))
    }

    /// [CKError] `requestRateLimited` carries `retryAfterSeconds`, also on one item of a
    /// partial failure: a delete fails with it and succeeds when sent again.
    @Test func theNextUploadsDeletesCanFailWithRetryAfter() {
        let fixture = CloudFixture()
        fixture.insert(fixture.note("n1"), fixture.note("n2"), fixture.note("n3"))
        fixture.cloud.throttleNextDeletes(account: "alice", records: 2, retryAfter: .seconds(10))
        // A request without deletes does not use it up.
        fixture.insert(fixture.note("n4"))
        let outcome = fixture.modify(deletes: ["n1", "n2", "n3"])
        let items = outcome.response.items
        #expect(items.map(\.code) == [.requestRateLimited, .requestRateLimited, nil])
        #expect(items.first?.error?.retryAfter == .seconds(10))
        #expect(fixture.cloud.record(named: "n1", in: fixture.zone) != nil)
        #expect(fixture.cloud.record(named: "n3", in: fixture.zone) == nil)
        let again = fixture.modify(deletes: ["n1", "n2"])
        #expect(again.response.items.allSatisfy { $0.isDeleted })
    }
}
