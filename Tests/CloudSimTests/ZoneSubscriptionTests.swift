import CloudSim
import Kernel
import Testing

/// [CKRecordZoneSubscription] (docs/CLOUDSIM.md *Pushes*): a change of any record of the
/// zone pushes the account's other registered devices, never the originator.
@Suite struct ZoneSubscriptionTests {
    func subscribed(to zone: ZoneID? = nil) -> (CloudFixture, ZoneSubscription) {
        let fixture = CloudFixture()
        let subscription = ZoneSubscription(id: "zone-changes", zone: zone ?? fixture.zone)
        let saved = fixture.send(
            .saveZoneSubscription(scope: .privateDatabase, subscription), from: fixture.laptop)
        #expect(saved.response == .subscriptionSaved, "\(saved.response)")
        #expect(saved.notes.first?.detail("zone") == subscription.zone.description)
        return (fixture, subscription)
    }

    @Test func anyChangeOfTheZonePushesTheOtherRegisteredDevices() {
        let (fixture, _) = subscribed()
        let created = fixture.modify(saves: [newSave(fixture.note("f1", type: "Folder"))])
        #expect(created.pushes == ["laptop"])
        let updated = fixture.modify(
            saves: [newSave(fixture.note("f1", ["name": .string("B")], type: "Folder"))],
            policy: .allKeys)
        #expect(updated.pushes == ["laptop"])
        #expect(fixture.modify(deletes: ["f1"]).pushes == ["laptop"])
        // The originator is never pushed.
        let own = fixture.modify(saves: [newSave(fixture.note("n1"))], from: fixture.laptop)
        #expect(own.pushes.isEmpty)
    }

    @Test func otherZonesAndRequestsThatChangeNothingDoNotPush() {
        let fixture = CloudFixture()
        let other = ZoneID(owner: "alice", name: "Other")
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        fixture.send(
            .saveZoneSubscription(
                scope: .privateDatabase, ZoneSubscription(id: "other", zone: other)),
            from: fixture.laptop)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes.isEmpty)
        #expect(fixture.modify(deletes: ["missing"]).pushes.isEmpty)
        let inOther = CloudRecord(recordType: "Note", recordName: "o1", zone: other)
        #expect(fixture.modify(saves: [newSave(inOther)], in: other).pushes == ["laptop"])
    }

    @Test func aSavedZoneSubscriptionIsFoundByItsID() {
        let (fixture, subscription) = subscribed()
        let found = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "zone-changes"), from: fixture.phone)
        #expect(found.response == .namedSubscriptionFetched(.zone(subscription)))
        #expect(fixture.cloud.zoneSubscriptions(of: "alice") == [subscription])
        // A query subscription saved under the same ID replaces it.
        let query = QuerySubscription(id: "zone-changes", recordType: "Note")
        fixture.send(.saveQuerySubscription(scope: .privateDatabase, query), from: fixture.phone)
        #expect(fixture.cloud.zoneSubscriptions(of: "alice").isEmpty)
        #expect(fixture.cloud.querySubscriptions(of: "alice") == [query])
    }

    @Test func aMissingZoneIsRefusedAndAnotherAccountsZoneIDNamesTheOwn() {
        let fixture = CloudFixture()
        let missing = ZoneID(owner: "alice", name: "Missing")
        let absent = fixture.send(
            .saveZoneSubscription(
                scope: .privateDatabase, ZoneSubscription(id: "m", zone: missing)),
            from: fixture.phone)
        #expect(absent.response.failure?.code == .zoneNotFound)
        let foreign = fixture.send(
            .saveZoneSubscription(
                scope: .privateDatabase, ZoneSubscription(id: "f", zone: fixture.zone)),
            from: fixture.desktop)
        #expect(foreign.response.failure?.code == .zoneNotFound)
        #expect(foreign.noteKinds == ["owner.resolved"])
        let shared = fixture.send(
            .saveZoneSubscription(
                scope: .sharedDatabase, ZoneSubscription(id: "s", zone: fixture.zone)),
            from: fixture.phone)
        #expect(shared.response.failure?.code == .invalidArguments)
    }
}
