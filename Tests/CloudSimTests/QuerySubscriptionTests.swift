import CloudSim
import Kernel
import Testing

/// What `naive` needs of the cloud (docs/CLOUDSIM.md): query subscriptions found by ID
/// (`unknownItem` when unknown) and saved, pushes for the record types and reasons they name
/// to the account's other registered devices, `fetch(withRecordZoneID:)`, and the note that
/// an `allKeys` save overwrote keys its client did not change (NAIVEW-1).
@Suite struct QuerySubscriptionTests {
    static let notes = QuerySubscription(id: "Note-changes", recordType: "Note")

    /// phone and laptop of alice registered through the Note subscription (saved by phone).
    func subscribedFixture() -> CloudFixture {
        let fixture = CloudFixture()
        fixture.send(
            .saveQuerySubscription(scope: .privateDatabase, Self.notes), from: fixture.phone)
        fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: Self.notes.id), from: fixture.laptop)
        return fixture
    }

    @Test func anUnknownSubscriptionIsUnknownItemAndASavedOneIsFound() {
        let fixture = CloudFixture()
        let missing = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "Note-changes"), from: fixture.phone)
        #expect(missing.response.failure?.code == .unknownItem)
        let saved = fixture.send(
            .saveQuerySubscription(scope: .privateDatabase, Self.notes), from: fixture.phone)
        #expect(saved.response == .subscriptionSaved)
        #expect(saved.noteKinds == ["subscription.saved"])
        #expect(saved.notes.first?.detail("subscription") == "Note-changes")
        let found = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "Note-changes"), from: fixture.laptop)
        #expect(found.response == .subscriptionFetched(Self.notes))
        // Subscriptions belong to the account's database: bob has none.
        let bob = fixture.send(
            .fetchSubscription(scope: .privateDatabase, id: "Note-changes"), from: fixture.desktop)
        #expect(bob.response.failure?.code == .unknownItem)
        #expect(fixture.cloud.querySubscriptions(of: "alice") == [Self.notes])
    }

    @Test func aMatchingChangePushesTheOtherRegisteredDevicesNeverTheOriginator() {
        let fixture = subscribedFixture()
        let created = fixture.modify(saves: [newSave(fixture.note("n1"))], policy: .allKeys)
        #expect(created.pushes == ["laptop"])
        let updated = fixture.modify(
            saves: [newSave(fixture.note("n1", ["title": .string("B")]))], policy: .allKeys,
            from: fixture.laptop)
        #expect(updated.pushes == ["phone"])
        let deleted = fixture.modify(deletes: ["n1"], from: fixture.laptop)
        #expect(deleted.pushes == ["phone"])
        // tablet never registered: no push, although it is alice's device.
        #expect(!created.pushes.contains("tablet"))
    }

    @Test func otherRecordTypesAndReasonsTheOptionsLeaveOutDoNotPush() {
        let fixture = CloudFixture()
        let onlyCreation = QuerySubscription(
            id: "Note-created", recordType: "Note", firesOnUpdate: false, firesOnDeletion: false)
        fixture.send(
            .saveQuerySubscription(scope: .privateDatabase, onlyCreation), from: fixture.laptop)
        let folder = fixture.modify(saves: [newSave(fixture.note("f1", type: "Folder"))])
        #expect(folder.pushes.isEmpty)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes == ["laptop"])
        let update = fixture.modify(
            saves: [newSave(fixture.note("n1", ["title": .string("B")]))], policy: .allKeys)
        #expect(update.pushes.isEmpty)
        #expect(fixture.modify(deletes: ["n1"]).pushes.isEmpty)
    }

    @Test func aSubscriptionWithAZoneCoversOnlyThatZone() {
        let fixture = CloudFixture()
        let other = ZoneID(owner: "alice", name: "Other")
        fixture.send(
            .modifyZones(scope: .privateDatabase, save: [other], delete: []), from: fixture.phone)
        let scoped = QuerySubscription(id: "Other-notes", recordType: "Note", zone: other)
        fixture.send(.saveQuerySubscription(scope: .privateDatabase, scoped), from: fixture.laptop)
        #expect(fixture.modify(saves: [newSave(fixture.note("n1"))]).pushes.isEmpty)
        let inOther = CloudRecord(recordType: "Note", recordName: "o1", zone: other)
        #expect(fixture.modify(saves: [newSave(inOther)], in: other).pushes == ["laptop"])
    }

    @Test func requestsThatChangeNothingDoNotPushQueryDevices() {
        let fixture = subscribedFixture()
        fixture.insert(fixture.note("n1"))
        let collision = fixture.insert(fixture.note("n1"), from: fixture.laptop)
        #expect(collision.first?.code == .serverRecordChanged)
        #expect(fixture.modify(deletes: ["ghost"]).pushes.isEmpty)
    }

    func fetch(_ zone: ZoneID, _ fixture: CloudFixture, _ client: CloudClient) -> CloudOutcome {
        fixture.send(.fetchZone(scope: .privateDatabase, zone: zone), from: client)
    }

    @Test func fetchZoneTellsWhetherTheZoneExists() {
        let fixture = CloudFixture(createZone: false)
        let zone = fixture.zone
        let missing = fetch(zone, fixture, fixture.phone)
        #expect(missing.response.failure?.code == .zoneNotFound)
        fixture.createAppZone(for: fixture.phone)
        let found = fetch(zone, fixture, fixture.laptop)
        #expect(found.response == .zoneFetched(zone))
        _ = fixture.cloud.userDeleteZone(account: "alice", now: fixture.now)
        let purged = fetch(zone, fixture, fixture.phone)
        #expect(purged.response.failure?.code == .userDeletedZone)
        // Alice's zone ID names bob's own zone of that name, which bob never made.
        let foreign = fetch(zone, fixture, fixture.desktop)
        #expect(foreign.response.failure?.code == .zoneNotFound)
    }

    @Test func anAllKeysSaveOverwritingKeysItDidNotChangeIsNoted() {
        let fixture = CloudFixture()
        fixture.modify(
            saves: [newSave(fixture.note("n1", ["title": .string("A"), "body": .string("b")]))],
            policy: .allKeys)
        // The phone changes the title; the laptop, which never saw it, changes the body and
        // writes its whole record (a fresh CKRecord, every key).
        fixture.modify(
            saves: [RecordSave(
                record: fixture.note("n1", ["title": .string("A2"), "body": .string("b")]),
                changedKeys: ["title"])],
            policy: .allKeys)
        let stale = fixture.modify(
            saves: [RecordSave(
                record: fixture.note("n1", ["title": .string("A"), "body": .string("b2")]),
                changedKeys: ["body"])],
            policy: .allKeys, from: fixture.laptop)
        let notes = stale.notes("record.overwritten")
        #expect(notes.count == 1)
        #expect(notes.first?.detail("keys") == "title")
        #expect(notes.first?.detail("previousWriter") == "phone")
        #expect(notes.first?.rules == [])  // neutral: naive's profile names NAIVEW-1
        #expect(fixture.serverRecord("n1").fields["title"] == .string("A"))
    }

    @Test func anAllKeysSaveOfValuesItSawIsNotAnOverwrite() {
        let fixture = CloudFixture()
        fixture.modify(
            saves: [newSave(fixture.note("n1", ["title": .string("A"), "body": .string("b")]))],
            policy: .allKeys)
        let fresh = fixture.modify(
            saves: [RecordSave(
                record: fixture.note("n1", ["title": .string("A"), "body": .string("b2")]),
                changedKeys: ["body"])],
            policy: .allKeys, from: fixture.laptop)
        #expect(fresh.notes("record.overwritten").isEmpty)
        // The same stale write under changedKeys writes only the changed key: nothing lost.
        let merged = fixture.modify(
            saves: [RecordSave(
                record: fixture.note("n1", ["title": .string("old"), "body": .string("b3")]),
                changedKeys: ["body"])],
            policy: .changedKeys, from: fixture.phone)
        #expect(merged.notes("record.overwritten").isEmpty)
        #expect(fixture.serverRecord("n1").fields["title"] == .string("A"))
    }
}
