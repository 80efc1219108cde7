import CloudSim
import Kernel
import Testing

/// [CKDatabaseSubscription] (docs/CLOUDSIM.md *Pushes*): database subscriptions and silent pushes: only to subscribed devices of the
/// changed account, never to the originator, sorted by device name.
@Suite struct PushTests {
    /// alice: phone, laptop, tablet subscribed (in that order); bob: desktop subscribed.
    func subscribedFixture() -> CloudFixture {
        let fixture = CloudFixture()
        for client in [fixture.tablet, fixture.phone, fixture.laptop, fixture.desktop] {
            fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: client)
        }
        return fixture
    }

    @Test func aSaveSubscriptionIsIdempotentAndNoted() {
        let fixture = CloudFixture()
        let first = fixture.send(
            .saveDatabaseSubscription(scope: .privateDatabase), from: fixture.phone)
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.phone)
        #expect(first.response == .subscriptionSaved)
        #expect(first.noteKinds == ["subscription.saved"])
        #expect(fixture.cloud.subscribedDevices(of: "alice", scope: .privateDatabase) == ["phone"])
    }

    @Test func aRecordChangePushesToTheOtherSubscribedDevicesOfTheAccountSorted() {
        let fixture = subscribedFixture()
        let outcome = fixture.modify(saves: [newSave(fixture.note("n1"))], from: fixture.tablet)
        #expect(outcome.pushes == ["laptop", "phone"])
        let deletion = fixture.modify(deletes: ["n1"], from: fixture.phone)
        #expect(deletion.pushes == ["laptop", "tablet"])
    }

    @Test func onlySubscribedDevicesGetPushes() {
        let fixture = CloudFixture()
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        fixture.send(.saveDatabaseSubscription(scope: .sharedDatabase), from: fixture.tablet)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes == ["laptop"])
    }

    @Test func changesOfOneAccountNeverPushToAnother() {
        let fixture = subscribedFixture()
        fixture.createAppZone(for: fixture.desktop)
        let bobNote = CloudRecord(recordType: "Note", recordName: "b1", zone: fixture.bobZone)
        #expect(fixture.modify(saves: [newSave(bobNote)], from: fixture.desktop).pushes.isEmpty)
        #expect(!fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes.contains("desktop"))
    }

    @Test func zoneCreationAndDeletionPushButAnUpsertDoesNot() {
        let fixture = subscribedFixture()
        let other = ZoneID(owner: "alice", name: "Other")
        let created = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.laptop)
        #expect(created.pushes == ["phone", "tablet"])
        let again = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.laptop)
        #expect(again.pushes.isEmpty)
        let deleted = fixture.send(
            .modifyZones(scope: .privateDatabase, save: [], delete: [other]), from: fixture.phone)
        #expect(deleted.pushes == ["laptop", "tablet"])
    }

    @Test func requestsThatChangeNothingDoNotPush() {
        let fixture = subscribedFixture()
        fixture.insert(fixture.note("n1"))
        #expect(
            fixture.insert(fixture.note("n1"), from: fixture.laptop).first?.code
                == .serverRecordChanged)
        #expect(
            fixture.modify(saves: [newSave(fixture.note("n1"))], from: fixture.laptop).pushes
                .isEmpty)
        #expect(fixture.modify(deletes: ["ghost"]).pushes.isEmpty)
        #expect(
            fixture.send(
                .fetchZoneChanges(
                    scope: .privateDatabase, zone: fixture.zone, token: nil, resultsLimit: 0),
                from: fixture.phone
            ).pushes.isEmpty)
        #expect(
            fixture.send(
                .fetchDatabaseChanges(scope: .privateDatabase, token: nil), from: fixture.phone
            )
            .pushes.isEmpty)
    }

    @Test func faultZoneDeletionsPushToEverySubscribedDevice() {
        let fixture = subscribedFixture()
        #expect(
            fixture.cloud.deleteZone(account: "alice", now: fixture.now).pushes == [
                "laptop", "phone", "tablet",
            ])
        fixture.createAppZone(for: fixture.phone)
        #expect(
            fixture.cloud.userDeleteZone(account: "alice", now: fixture.now).pushes
                == ["laptop", "phone", "tablet"])
    }
}
