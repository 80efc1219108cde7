import CloudSim
import Kernel
import Testing

/// The private database's default zone (for the literal code of `naive`, NAIVE-15): it exists
/// without being created, its records are saved like any other's, but it never appears in the
/// database feed and pushes only through query subscriptions.
@Suite struct DefaultZoneTests {
    @Test func saveIntoTheDefaultZoneWithoutCreatingIt() {
        let fixture = CloudFixture(createZone: false)
        let zone = ZoneID.defaultZone(of: "alice")
        let found = fixture.send(.fetchZone(scope: .privateDatabase, zone: zone), from: fixture.phone)
        #expect(found.response == .zoneFetched(zone))
        let record = CloudRecord(recordType: "Note", recordName: "Note_1", zone: zone,
                                 fields: ["title": .string("A")])
        let saved = fixture.modify(saves: [newSave(record)], in: zone)
        #expect(saved.response.items.first?.savedRecord?.fields["title"] == .string("A"))
        #expect(fixture.cloud.record(named: "Note_1", in: zone) != nil)
    }

    @Test func itIsNeverInTheDatabaseFeedAndDatabaseSubscriptionsNeverPush() {
        let fixture = CloudFixture(createZone: false)
        fixture.send(.saveDatabaseSubscription(scope: .privateDatabase), from: fixture.laptop)
        let zone = ZoneID.defaultZone(of: "alice")
        let record = CloudRecord(recordType: "Note", recordName: "Note_1", zone: zone)
        #expect(fixture.modify(saves: [newSave(record)], in: zone).pushes.isEmpty)
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed.isEmpty == true)
        // A custom zone's save is reported and pushed, as before.
        fixture.createAppZone(for: fixture.phone)
        #expect(fixture.fetchDatabase(after: nil).databaseChanges?.changed == [fixture.zone])
    }

    @Test func querySubscriptionsCoverIt() {
        let fixture = CloudFixture(createZone: false)
        let subscription = QuerySubscription(id: "note-changes-subscription", recordType: "Note")
        fixture.send(.saveQuerySubscription(scope: .privateDatabase, subscription), from: fixture.laptop)
        let zone = ZoneID.defaultZone(of: "alice")
        let record = CloudRecord(recordType: "Note", recordName: "Note_1", zone: zone)
        #expect(fixture.modify(saves: [newSave(record)], in: zone).pushes == ["laptop"])
    }
}
