import CloudKit
import CloudKitNotes
import Foundation
import SyncLabTesting
import Testing

/// The notes app's sync, tested as Apple's sample tests its own: two (or three) devices on one
/// account, each call made on its device, simulated time passing under each `run`.
@Suite struct SyncTests {
    let world: SimulatedWorld

    init() throws {
        world = try SimulatedWorld(devices: [("phone", "alice"), ("laptop", "alice"), ("tablet", "alice")])
    }

    /// A date of the simulated clock's start, `seconds` later (CloudKit keeps milliseconds).
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    func open(_ device: SimulatedDevice) throws -> NotesStore {
        let file = device.url(for: .documentDirectory).appendingPathComponent("notes.json")
        return try device.run { NotesStore(fileURL: file, automaticallySync: false) }
    }

    @Test(arguments: [1, 10, 444]) func notesSentOnOneDeviceAreFetchedOnTheOther(count: Int) throws {
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let storeA = try open(phone)
        let storeB = try open(laptop)
        let notes = (0..<count).map { Note(id: "note-\($0)", text: "\($0)", modified: Self.date(1)) }
        try phone.run { try await storeA.save(notes) }
        try phone.run { try await storeA.syncEngine.sendChanges() }
        #expect(try laptop.run { await storeB.notes.isEmpty })
        try laptop.run { try await storeB.syncEngine.fetchChanges() }
        let fetched = try laptop.run { await storeB.notes }
        #expect(fetched.values.sorted { $0.id < $1.id } == notes.sorted { $0.id < $1.id })
    }

    @Test func aRenameTravelsBothWays() throws {
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let storeA = try open(phone)
        let storeB = try open(laptop)
        try phone.run { try await storeA.save([Note(id: "n1", text: "Name 1", modified: Self.date(1))]) }
        try phone.run { try await storeA.syncEngine.sendChanges() }
        try laptop.run { try await storeB.syncEngine.fetchChanges() }
        var onLaptop = try #require(try laptop.run { await storeB.notes["n1"] })
        #expect(onLaptop.text == "Name 1")
        onLaptop.text = "Name 2"
        onLaptop.modified = Self.date(2)
        let renamed = onLaptop
        try laptop.run { try await storeB.save([renamed]) }
        try laptop.run { try await storeB.syncEngine.sendChanges() }
        try phone.run { try await storeA.syncEngine.fetchChanges() }
        #expect(try phone.run { await storeA.notes["n1"]?.text } == "Name 2")
    }

    @Test(arguments: ["zoneNotFound", "unknownItem"]) func aSaveThatFailsIsSentAgain(failure: String) throws {
        let (phone, tablet) = (world.device("phone"), world.device("tablet"))
        let store = try open(phone)
        try phone.run { try await store.save([Note(id: "n1", text: "first", modified: Self.date(1))]) }
        try phone.run { try await store.syncEngine.sendChanges() }
        let created = try phone.run { await store.notes["n1"]?.lastKnownRecordCreationDate }
        #expect(created != nil)
        if failure == "zoneNotFound" {
            try phone.run { try await store.syncEngine.database.deleteRecordZone(withID: CKRecordZone.ID(zoneName: "Notes")) }
        } else {
            let id = CKRecord.ID(recordName: "n1", zoneID: CKRecordZone.ID(zoneName: "Notes"))
            try phone.run { try await store.syncEngine.database.deleteRecord(withID: id) }
        }
        try world.advance(by: .seconds(1))
        try phone.run { try await store.save([Note(id: "n1", text: "renamed", modified: Self.date(2))]) }
        #expect(throws: CKError.self) { try phone.run { try await store.syncEngine.sendChanges() } }
        #expect(try phone.run { await store.notes["n1"]?.lastKnownRecordCreationDate } == nil)
        try phone.run { try await store.syncEngine.sendChanges() }
        let other = try open(tablet)
        try tablet.run { try await other.syncEngine.fetchChanges() }
        let fetched = try #require(try tablet.run { await other.notes["n1"] })
        #expect(fetched.text == "renamed")
        #expect(fetched.lastKnownRecordCreationDate != created)
    }

    @Test(arguments: [true, false]) func theLaterEditWinsAConflict(winnerSavesFirst: Bool) throws {
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let storeA = try open(phone)
        let storeB = try open(laptop)
        try phone.run { try await storeA.save([Note(id: "n1", text: "A1", modified: Self.date(1))]) }
        try phone.run { try await storeA.syncEngine.sendChanges() }
        try laptop.run { try await storeB.syncEngine.fetchChanges() }
        let winner = Note(id: "n1", text: "A2", modified: Self.date(3))
        let loser = Note(id: "n1", text: "B1", modified: Self.date(2))
        try phone.run { try await storeA.save([winner]) }
        try laptop.run { try await storeB.save([loser]) }
        let (first, second) = winnerSavesFirst ? (phone, laptop) : (laptop, phone)
        let (firstStore, secondStore) = winnerSavesFirst ? (storeA, storeB) : (storeB, storeA)
        try first.run { try await firstStore.syncEngine.sendChanges() }
        #expect(throws: CKError.self) { try second.run { try await secondStore.syncEngine.sendChanges() } }
        #expect(try second.run { await secondStore.syncEngine.state.pendingRecordZoneChanges.count } == 1)
        #expect(try first.run { await firstStore.syncEngine.state.pendingRecordZoneChanges.count } == 0)
        try second.run { try await secondStore.syncEngine.sendChanges() }
        try first.run { try await firstStore.syncEngine.fetchChanges() }
        #expect(try phone.run { await storeA.notes["n1"] } == winner)
        #expect(try laptop.run { await storeB.notes["n1"] } == winner)
    }

    @Test func aNoteReachesTheOtherDevice() throws {
        let world = try SimulatedWorld(devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let fileA = phone.url(for: .documentDirectory).appendingPathComponent("notes.json")
        let fileB = laptop.url(for: .documentDirectory).appendingPathComponent("notes.json")
        let storeA = try phone.run { NotesStore(fileURL: fileA, automaticallySync: false) }
        let storeB = try laptop.run { NotesStore(fileURL: fileB, automaticallySync: false) }
        let note = Note(id: "n1", text: "milk", modified: Date(timeIntervalSince1970: 1_700_000_000))
        try phone.run { try await storeA.save([note]) }
        try phone.run { try await storeA.syncEngine.sendChanges() }
        try laptop.run { try await storeB.syncEngine.fetchChanges() }
        #expect(try laptop.run { await storeB.notes["n1"]?.text } == "milk")
    }
}
