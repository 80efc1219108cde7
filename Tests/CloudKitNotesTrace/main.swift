// Runs one story of the CloudKit example (Examples/CloudKitNotes) on SyncLab's driver and
// prints the trace as JSON Lines: SyncLabCloudKitTests runs it in two processes and compares
// the bytes (same seed, same trace, whatever the app's tasks, actors and main actor do).
import CloudKitNotes
import Foundation
import SyncLabTesting

/// A story of the CloudKit example, with automatic sync, run on a fresh world: two devices
/// edit notes, one goes offline and back, and the world settles. Its trace is the same for a
/// seed in every run and every process.
enum NotesStory {
    static func trace(seed: UInt64) throws -> String {
        let world = try SimulatedWorld(seed: seed, devices: [("phone", "alice"), ("laptop", "alice")])
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let fileA = phone.url(for: .documentDirectory).appendingPathComponent("notes.json")
        let fileB = laptop.url(for: .documentDirectory).appendingPathComponent("notes.json")
        let storeA = try phone.run { NotesStore(fileURL: fileA) }
        let storeB = try laptop.run { NotesStore(fileURL: fileB) }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try phone.run { try await storeA.save([Note(id: "n1", text: "milk", modified: start)]) }
        try laptop.run { try await storeB.save([Note(id: "n2", text: "eggs", count: 2, modified: start)]) }
        try world.perform("wait 3s")
        try phone.goOffline()
        try phone.run { try await storeA.save([Note(id: "n2", text: "bread", modified: start + 5)]) }
        try world.perform("wait 10s")
        try phone.goOnline()
        try world.settle()
        try world.advance(by: .seconds(30))
        return world.traceJSONLines
    }
}

let seed = CommandLine.arguments.dropFirst().first.flatMap { UInt64($0) } ?? 1
do {
    print(try NotesStory.trace(seed: seed), terminator: "")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
