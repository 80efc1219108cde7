import CloudKit
import CloudKitNotes
import Foundation
import SyncContract
import SyncLabTesting
import Testing

/// SyncLab's CKSyncEngine traces the weaknesses of docs/APP-RULES.md in an app it knows
/// nothing of (the notes example, unchanged) where the app's answer to an event loses data.
@Suite struct AppWeaknessTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    func makeWorld() throws -> SimulatedWorld {
        try SimulatedWorld(seed: 1, devices: [("phone", "alice"), ("laptop", "alice")])
    }

    func openApp(on device: SimulatedDevice) throws -> NotesStore {
        let url = device.url(for: .documentDirectory).appendingPathComponent("notes.json")
        return try device.run { NotesStore(fileURL: url, automaticallySync: false) }
    }

    static func note(_ text: String, count: Int = 1, at seconds: Double = 0) -> Note {
        Note(id: "n1", text: text, count: count, modified: start + seconds)
    }

    /// The trace lines of one kind: each must cite `rule`.
    func lines(_ kind: String, citing rule: String, in world: SimulatedWorld) -> [Substring] {
        let found = world.traceJSONLines.split(separator: "\n")
            .filter { $0.contains("\"kind\":\"\(kind)\"") }
        for line in found { #expect(line.contains("\"\(rule)\""), "\(line)") }
        return found
    }

    func appTraces(in world: SimulatedWorld) -> [Substring] {
        world.traceJSONLines.split(separator: "\n").filter { $0.contains("\"APPW-") }
    }

    @Test func aSaveRefusedForQuotaAndNotScheduledAgainIsTraced() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try world.perform("cloud: quota alice full")
        try phone.run { try await app.save([Self.note("a")]) }
        try? phone.run { try await app.syncEngine.sendChanges() }
        let dropped = lines("app.failed-change-dropped", citing: "APPW-1", in: world)
        #expect(dropped.count == 1)
        #expect(dropped.first?.contains("quotaExceeded") == true)
    }

    @Test func syncingWithoutARaceTracesNoWeakness() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (appA, appB) = (try openApp(on: phone), try openApp(on: laptop))
        try phone.run { try await appA.save([Self.note("a")]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.syncEngine.fetchChanges() }
        try laptop.run { try await appB.save([Self.note("a", count: 2, at: 10)]) }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        try phone.run { try await appA.syncEngine.fetchChanges() }
        try phone.run { try await appA.save([Self.note("b", count: 2, at: 20)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        #expect(appTraces(in: world).isEmpty)
    }

    /// The laptop edits `count` on a copy without the phone's newer `text`; the conflict's
    /// merge by modification date keeps the laptop's whole note, and its save brings the old
    /// text back.
    @Test func aMergeThatSendsAnOlderFieldBackIsTraced() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (appA, appB) = (try openApp(on: phone), try openApp(on: laptop))
        try phone.run { try await appA.save([Self.note("a")]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.syncEngine.fetchChanges() }
        try phone.run { try await appA.save([Self.note("b", at: 10)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.save([Self.note("a", count: 2, at: 20)]) }
        try? laptop.run { try await appB.syncEngine.sendChanges() }
        #expect(appTraces(in: world).isEmpty, "the conflict itself is no weakness")
        try laptop.run { try await appB.syncEngine.sendChanges() }
        let older = lines("app.older-value-sent", citing: "APPW-2", in: world)
        #expect(older.count == 1)
        #expect(older.first?.contains("\"field\":\"text\"") == true)
        let text = world.cloudRecords(zoneName: "Notes", account: "alice").first?["text"]
        #expect(text as? String == "a", "the phone's edit is lost, as the trace says")
    }

    /// The laptop made the note and fetched the phone's first text; the phone's second text
    /// reaches it only as a conflict's server copy, and the merge sends the first text back.
    @Test func aFieldFromAnEarlierFetchSentOverAConflictsCopyIsTraced() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (appA, appB) = (try openApp(on: phone), try openApp(on: laptop))
        try laptop.run { try await appB.save([Self.note("")]) }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        try phone.run { try await appA.syncEngine.fetchChanges() }
        try phone.run { try await appA.save([Self.note("b", at: 10)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.syncEngine.fetchChanges() }
        try phone.run { try await appA.save([Self.note("c", at: 20)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.save([Self.note("b", count: 2, at: 30)]) }
        try? laptop.run { try await appB.syncEngine.sendChanges() }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        let older = lines("app.older-value-sent", citing: "APPW-2", in: world)
        #expect(older.count == 1)
        #expect(older.first?.contains("\"field\":\"text\"") == true)
    }

    /// The laptop's later edit of `count` is saved first; the phone's earlier edit of `text`
    /// meets it as a conflict, and the merge by modification date takes the laptop's whole
    /// note: the phone's next save lacks its own text.
    @Test func aConflictsMergeThatDropsTheDevicesOwnEditIsTraced() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (appA, appB) = (try openApp(on: phone), try openApp(on: laptop))
        try laptop.run { try await appB.save([Self.note("a")]) }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        try phone.run { try await appA.syncEngine.fetchChanges() }
        try laptop.run { try await appB.save([Self.note("a", count: 2, at: 20)]) }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        try phone.run { try await appA.save([Self.note("b", at: 10)]) }
        try? phone.run { try await appA.syncEngine.sendChanges() }
        try phone.run { try await appA.syncEngine.sendChanges() }
        let dropped = lines("app.own-edit-dropped", citing: "APPW-2", in: world)
        #expect(dropped.count == 1)
        #expect(dropped.first?.contains("\"field\":\"text\"") == true)
        let text = world.cloudRecords(zoneName: "Notes", account: "alice").first?["text"]
        #expect(text as? String == "a", "the phone's edit is lost, as the trace says")
    }

    @Test func aSaveOfARecordDeletedElsewhereScheduledAgainIsTraced() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (appA, appB) = (try openApp(on: phone), try openApp(on: laptop))
        try phone.run { try await appA.save([Self.note("a")]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.syncEngine.fetchChanges() }
        try laptop.run { try await appB.delete(["n1"]) }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        try phone.run { try await appA.save([Self.note("b", at: 10)]) }
        try? phone.run { try await appA.syncEngine.sendChanges() }
        #expect(lines("app.deleted-record-saved-again", citing: "APPW-3", in: world).count == 1)
        #expect(lines("app.failed-change-dropped", citing: "APPW-1", in: world).isEmpty)
    }

    @Test func aRecordFetchedWhileItsDeletionWaitsIsTraced() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let (appA, appB) = (try openApp(on: phone), try openApp(on: laptop))
        try phone.run { try await appA.save([Self.note("a")]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.syncEngine.fetchChanges() }
        try laptop.run { try await appB.save([Self.note("b", at: 10)]) }
        try laptop.run { try await appB.syncEngine.sendChanges() }
        try phone.run { try await appA.delete(["n1"]) }
        #expect(appTraces(in: world).isEmpty)
        try phone.run { try await appA.syncEngine.fetchChanges() }
        #expect(lines("app.fetched-record-deletion-pending", citing: "APPW-4", in: world)
            .count == 1)
    }

    @Test func aSignOutWithChangesWaitingIsTraced() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.syncEngine.fetchChanges() }
        try phone.run { try await app.save([Self.note("a")]) }
        try phone.signOut()
        try? phone.run { try await app.syncEngine.fetchChanges() }
        let reset = lines("app.changes-pending-at-reset", citing: "APPW-5", in: world)
        #expect(reset.count == 1)
        #expect(reset.first?.contains("signOut") == true)
    }

    /// The app empties its notes when the zone's deletion comes down, as Apple's sample does:
    /// traced when another device's code deleted the zone, not when the user did.
    @Test(arguments: ["delete-zone", "user-delete-zone"])
    func aZoneDeletedElsewhereIsTracedAndTheUsersDeletionIsNot(fault: String) throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.save([Self.note("a")]) }
        try phone.run { try await app.syncEngine.sendChanges() }
        try phone.run { try await app.syncEngine.fetchChanges() }
        try world.perform("cloud: \(fault) alice")
        try phone.run { try await app.syncEngine.fetchChanges() }
        let traced = lines("app.zone-deleted-elsewhere", citing: "APPW-6", in: world)
        #expect(traced.count == (fault == "delete-zone" ? 1 : 0))
        #expect(try phone.run { await app.notes.isEmpty }, "the app empties its notes either way")
    }

    @Test func anAppsOwnCatalogueComesFirstAndKeepsItsRules() {
        let own = RuleCatalogue(groupTitles: [("NOTES", "the notes app's rules")], rules: [
            Rule(id: "NOTES-1", group: "NOTES", text: "A later edit wins the whole note.",
                 explains: ["lost-change"]),
        ])
        let merged = AppRules.catalogue(adding: own)
        #expect(merged.groupTitles.map(\.group) == ["NOTES", "APPW"])
        #expect(merged.rules.map(\.id) == ["NOTES-1"] + AppRules.catalogue.rules.map(\.id))
        let empty = RuleCatalogue(groupTitles: [("APP", "the app's own rules")], rules: [])
        #expect(AppRules.catalogue(adding: empty).groupTitles.map(\.group) == ["APPW"])
        #expect(AppRules.catalogue.weaknesses.map(\.id)
            == ["APPW-1", "APPW-2", "APPW-3", "APPW-4", "APPW-5", "APPW-6"])
    }
}
