import CloudKit
import CloudKitNotes
import Foundation
import SyncLabTesting
import Testing

/// A zone an engine made while signed out is named without an account; the cloud saves it in
/// the signed-in account's private database, and the engine settles the change it sent.
@Suite struct ZoneOwnerTests {
    @Test func aZoneSaveResolvedToTheSignedInAccountIsSettled() throws {
        let world = try SimulatedWorld(seed: 1, devices: [("laptop", "alice")])
        let laptop = world.device("laptop")
        let file = laptop.url(for: .documentDirectory).appendingPathComponent("notes.json")
        let store = try laptop.run { NotesStore(fileURL: file) }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try laptop.run { try await store.save([Note(id: "n1", text: "a", modified: date)]) }
        try world.advance(by: .seconds(1))
        try laptop.signOut()
        try laptop.run { try await store.save([Note(id: "n1", text: "b", modified: date + 1)]) }
        try laptop.signIn("alice")
        try world.settle()
        let records = world.cloudRecords(zoneName: "Notes", account: "alice")
        #expect(records.map(\.recordID.recordName) == ["n1"])
        #expect(records.first?["text"] as? String == "b")
        let resent = world.traceJSONLines.split(separator: "\n")
            .filter { $0.contains("\"kind\":\"modifyZones\"") && $0.contains("request.sent") }
        #expect(resent.count < 5, "the zone is saved once or twice, not again and again")
        let saves = world.traceJSONLines.split(separator: "\n")
            .filter { $0.contains("\"kind\":\"modifyRecords\"") && $0.contains("request.sent") }
        #expect(saves.count < 5, "the record is saved once or twice, not again and again")
        #expect(!world.traceJSONLines.contains("invalidArguments"),
            "the note added signed out and again signed in is one pending change, sent once")
    }
}
