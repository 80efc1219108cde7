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

    /// The notes app on one device, syncing only when told.
    struct App {
        let device: SimulatedDevice
        let store: NotesStore

        init(on device: SimulatedDevice) throws {
            self.device = device
            let url = device.url(for: .documentDirectory).appendingPathComponent("notes.json")
            store = try device.run { NotesStore(fileURL: url, automaticallySync: false) }
        }

        func save(_ note: Note) throws {
            let store = store
            try device.run { try await store.save([note]) }
        }

        func delete(_ id: String) throws {
            let store = store
            try device.run { try await store.delete([id]) }
        }

        func send() throws {
            let store = store
            try device.run { try await store.syncEngine.sendChanges() }
        }

        /// A send some of whose changes fail (`partialFailure`).
        func sendWithFailures() {
            let store = store
            try? device.run { try await store.syncEngine.sendChanges() }
        }

        func fetch() throws {
            let store = store
            try device.run { try await store.syncEngine.fetchChanges() }
        }
    }

    func twoApps() throws -> (SimulatedWorld, phone: App, laptop: App) {
        let world = try makeWorld()
        return (world, try App(on: world.device("phone")), try App(on: world.device("laptop")))
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

    /// Starts the app's send and takes its device offline once the save left: iCloud applies
    /// it, and its answer is lost.
    func loseTheAnswer(to app: App, in world: SimulatedWorld) throws {
        try startSending(app, in: world)
        try world.perform("\(app.device.name): offline")
    }

    /// Starts the app's send and returns once its save left, before the answer comes.
    func startSending(_ app: App, in world: SimulatedWorld) throws {
        let sent = { world.traceJSONLines.components(separatedBy: "\"kind\":\"modifyRecords\"")
            .count }
        let before = sent()
        let store = app.store
        try app.device.run { Task { try? await store.syncEngine.sendChanges() } }
        while sent() == before { try world.advance(by: .milliseconds(10)) }
    }

    func appTraces(in world: SimulatedWorld) -> [Substring] {
        world.traceJSONLines.split(separator: "\n").filter { $0.contains("\"APPW-") }
    }

    @Test func aSaveRefusedForQuotaAndNotScheduledAgainIsTraced() throws {
        let (world, phone, _) = try twoApps()
        try world.perform("cloud: quota alice full")
        try phone.save(Self.note("a"))
        phone.sendWithFailures()
        let dropped = lines("app.failed-change-dropped", citing: "APPW-1", in: world)
        #expect(dropped.count == 1)
        #expect(dropped.first?.contains("quotaExceeded") == true)
    }

    @Test func syncingWithoutARaceTracesNoWeakness() throws {
        let (world, phone, laptop) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try laptop.fetch()
        try laptop.save(Self.note("a", count: 2, at: 10))
        try laptop.send()
        try phone.fetch()
        try phone.save(Self.note("b", count: 2, at: 20))
        try phone.send()
        #expect(appTraces(in: world).isEmpty)
    }

    /// The laptop edits `count` on a copy without the phone's newer `text`; the conflict's
    /// merge by modification date keeps the laptop's whole note, and its save brings the old
    /// text back.
    @Test func aMergeThatSendsAnOlderFieldBackIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try laptop.fetch()
        try phone.save(Self.note("b", at: 10))
        try phone.send()
        try laptop.save(Self.note("a", count: 2, at: 20))
        laptop.sendWithFailures()
        #expect(appTraces(in: world).isEmpty, "the conflict itself is no weakness")
        try laptop.send()
        let older = lines("app.older-value-sent", citing: "APPW-2", in: world)
        #expect(older.count == 1)
        #expect(older.first?.contains("\"field\":\"text\"") == true)
        let text = world.cloudRecords(zoneName: "Notes", account: "alice").first?["text"]
        #expect(text as? String == "a", "the phone's edit is lost, as the trace says")
    }

    /// The laptop made the note and fetched the phone's first text; the phone's second text
    /// reaches it only as a conflict's server copy, and the merge sends the first text back.
    @Test func aFieldFromAnEarlierFetchSentOverAConflictsCopyIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note(""))
        try laptop.send()
        try phone.fetch()
        try phone.save(Self.note("b", at: 10))
        try phone.send()
        try laptop.fetch()
        try phone.save(Self.note("c", at: 20))
        try phone.send()
        try laptop.save(Self.note("b", count: 2, at: 30))
        laptop.sendWithFailures()
        try laptop.send()
        let older = lines("app.older-value-sent", citing: "APPW-2", in: world)
        #expect(older.count == 1)
        #expect(older.first?.contains("\"field\":\"text\"") == true)
    }

    /// The laptop's later edit of `count` is saved first; the phone's earlier edit of `text`
    /// meets it as a conflict, and the merge by modification date takes the laptop's whole
    /// note: the phone's next save lacks its own text.
    @Test func aConflictsMergeThatDropsTheDevicesOwnEditIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try laptop.save(Self.note("a", count: 2, at: 20))
        try laptop.send()
        try phone.save(Self.note("b", at: 10))
        phone.sendWithFailures()
        try phone.send()
        let dropped = lines("app.own-edit-dropped", citing: "APPW-2", in: world)
        #expect(dropped.count == 1)
        #expect(dropped.first?.contains("\"field\":\"text\"") == true)
        let text = world.cloudRecords(zoneName: "Notes", account: "alice").first?["text"]
        #expect(text as? String == "a", "the phone's edit is lost, as the trace says")
    }

    /// The phone's edit of `text` is throttled; the laptop's later edit of `count` is saved
    /// meanwhile, and the phone's fetch brings it before the retry: the merge takes the
    /// laptop's whole note, and the retried save lacks the phone's text.
    @Test func aFetchsMergeThatDropsAnUnsentEditIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try phone.save(Self.note("b", at: 10))
        try world.perform("cloud: throttle alice next-upload 1 records retry-after 5s")
        phone.sendWithFailures()
        try laptop.save(Self.note("a", count: 2, at: 20))
        try laptop.send()
        try phone.fetch()
        try world.advance(by: .seconds(6))
        try phone.send()
        let dropped = lines("app.own-edit-dropped", citing: "APPW-2", in: world)
        #expect(dropped.count == 1)
        #expect(dropped.first?.contains("\"field\":\"text\"") == true)
    }

    /// The phone's edit of `count` waits to be sent when the laptop's later edit of `text`
    /// is fetched: the merge by modification date takes the laptop's whole note, and the
    /// phone's edit is never sent.
    @Test func aFetchsMergeThatDropsAnEditNeverSentIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try phone.save(Self.note("a", count: 2, at: 10))
        try laptop.save(Self.note("b", at: 20))
        try laptop.send()
        try phone.fetch()
        try phone.send()
        #expect(lines("app.unsent-edit-dropped", citing: "APPW-2", in: world).count == 1)
        let count = world.cloudRecords(zoneName: "Notes", account: "alice").first?["count"]
        #expect(count as? Int == 1, "the phone's edit is lost, as the trace says")
    }

    /// A merge that keeps the phone's edit of `count` and the laptop's `text` sends no trace.
    @Test func anEditSentWithTheFetchedCopyMergedInIsNotTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try laptop.save(Self.note("b", at: 10))
        try laptop.send()
        try phone.save(Self.note("a", count: 2, at: 20))
        try phone.fetch()
        try phone.send()
        #expect(lines("app.unsent-edit-dropped", citing: "APPW-2", in: world).isEmpty)
    }

    /// The phone knew the note before a relaunch; the laptop's edit of `count` is saved, and
    /// the phone's later edit of `text`, made on its copy, meets it as a conflict whose merge
    /// keeps the phone's whole note: the old count goes back, judged against the copy the
    /// phone was given before the relaunch.
    @Test func anOlderFieldSentBackAfterARelaunchIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try phone.device.kill()
        try phone.device.launch()
        let relaunched = try App(on: phone.device)
        try relaunched.fetch()
        try laptop.save(Self.note("a", count: 2, at: 10))
        try laptop.send()
        try relaunched.save(Self.note("b", at: 20))
        relaunched.sendWithFailures()
        try relaunched.send()
        let older = lines("app.older-value-sent", citing: "APPW-2", in: world)
        #expect(older.count == 1)
        #expect(older.first?.contains("\"field\":\"count\"") == true)
    }

    /// The laptop's edit of `text` reaches iCloud but its answer is lost; the phone's later
    /// text is saved over it; the laptop, offline, edits `count`, and the conflict's merge by
    /// modification date keeps its whole note: its older text goes back over the phone's.
    @Test func anOlderFieldFromASaveWhoseAnswerWasLostIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try laptop.save(Self.note("b", at: 10))
        try loseTheAnswer(to: laptop, in: world)
        try world.advance(by: .seconds(1))
        try phone.fetch()
        try phone.save(Self.note("c", at: 20))
        try phone.send()
        try laptop.save(Self.note("b", count: 2, at: 30))
        try world.perform("laptop: online")
        laptop.sendWithFailures()
        try laptop.send()
        let older = lines("app.older-value-sent", citing: "APPW-2", in: world)
        #expect(older.count == 1)
        #expect(older.first?.contains("\"field\":\"text\"") == true)
        let text = world.cloudRecords(zoneName: "Notes", account: "alice").first?["text"]
        #expect(text as? String == "b", "the phone's later text is lost, as the trace says")
    }

    @Test func aSaveOfARecordDeletedElsewhereScheduledAgainIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try laptop.fetch()
        try laptop.delete("n1")
        try laptop.send()
        try phone.save(Self.note("b", at: 10))
        phone.sendWithFailures()
        #expect(lines("app.deleted-record-saved-again", citing: "APPW-3", in: world).count == 1)
        #expect(lines("app.failed-change-dropped", citing: "APPW-1", in: world).isEmpty)
    }

    @Test func aRecordFetchedWhileItsDeletionWaitsIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try laptop.fetch()
        try laptop.save(Self.note("b", at: 10))
        try laptop.send()
        try phone.delete("n1")
        #expect(appTraces(in: world).isEmpty)
        try phone.fetch()
        #expect(lines("app.fetched-record-deletion-pending", citing: "APPW-4", in: world)
            .count == 1)
    }

    /// The phone's edit meets the laptop's in iCloud while the phone's user deletes the note:
    /// the app merges the conflict and retries the save, which replaces the deletion.
    @Test func aSaveRetriedOverTheDevicesOwnDeletionIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try laptop.fetch()
        try laptop.save(Self.note("a", count: 2, at: 10))
        try laptop.send()
        try phone.save(Self.note("b", at: 20))
        try startSending(phone, in: world)
        try phone.delete("n1")
        try world.advance(by: .seconds(5))
        #expect(lines("app.deletion-replaced-by-retry", citing: "APPW-9", in: world).count == 1)
        #expect(lines("app.failed-change-dropped", citing: "APPW-1", in: world).isEmpty)
    }

    @Test func aSignOutWithChangesWaitingIsTraced() throws {
        let (world, phone, _) = try twoApps()
        try phone.fetch()
        try phone.save(Self.note("a"))
        try phone.device.signOut()
        try? phone.fetch()
        let reset = lines("app.changes-pending-at-reset", citing: "APPW-5", in: world)
        #expect(reset.count == 1)
        #expect(reset.first?.contains("signOut") == true)
    }

    /// The app empties its notes when the zone's deletion comes down, as Apple's sample does:
    /// traced when another device's code deleted the zone, not when the user did.
    @Test(arguments: ["delete-zone", "user-delete-zone"])
    func aZoneDeletedElsewhereIsTracedAndTheUsersDeletionIsNot(fault: String) throws {
        let (world, phone, _) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try phone.fetch()
        try world.perform("cloud: \(fault) alice")
        try phone.fetch()
        let traced = lines("app.zone-deleted-elsewhere", citing: "APPW-6", in: world)
        #expect(traced.count == (fault == "delete-zone" ? 1 : 0))
        let store = phone.store
        #expect(try phone.device.run { await store.notes.isEmpty },
            "the app empties its notes either way")
    }

    /// The zone's deletion comes down while the phone's edit waits to be sent.
    @Test func aZoneDeletedWithAChangeWaitingIsTraced() throws {
        let (world, phone, _) = try twoApps()
        try phone.save(Self.note("a"))
        try phone.send()
        try phone.fetch()
        try phone.save(Self.note("b", at: 10))
        try world.perform("cloud: delete-zone alice")
        try phone.fetch()
        let reset = lines("app.changes-pending-at-reset", citing: "APPW-5", in: world)
        #expect(reset.count == 1)
        #expect(reset.first?.contains("\"pending\":1") == true)
    }

    /// The laptop deletes the note while the phone's tokens expire: the phone's fetch from
    /// scratch brings no deletion, and it keeps the note.
    @Test func aFetchFromScratchAfterAnExpiredTokenIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try laptop.send()
        try phone.fetch()
        try laptop.delete("n1")
        try laptop.send()
        #expect(appTraces(in: world).isEmpty)
        try world.perform("cloud: expire-tokens alice")
        try phone.fetch()
        #expect(!lines("app.fetched-from-scratch", citing: "APPW-7", in: world).isEmpty)
        let store = phone.store
        #expect(try phone.device.run { await store.notes["n1"] != nil }, "the deletion is missed")
    }

    /// The laptop's first save of the note reaches iCloud but its answer is lost (offline
    /// while it was in flight);
    /// the phone deletes the note meanwhile, and the laptop's save, sent again without a
    /// change tag, creates it again.
    @Test func aFirstSaveSentAgainOverADeletionIsTraced() throws {
        let (world, phone, laptop) = try twoApps()
        try laptop.save(Self.note("a"))
        try loseTheAnswer(to: laptop, in: world)
        try world.advance(by: .seconds(1))
        try phone.fetch()
        try phone.delete("n1")
        try phone.send()
        #expect(appTraces(in: world).isEmpty)
        try world.perform("laptop: online")
        try laptop.send()
        #expect(lines("record.created-over-tombstone", citing: "APPW-8", in: world).count == 1)
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").count == 1,
            "the phone's deletion is lost, as the trace says")
    }

    /// An app whose fetch replaces the local item drops the phone's waiting save with it.
    @Test func aSaveDroppedForAFetchedCopyIsTraced() throws {
        let world = try makeWorld()
        let phone = world.device("phone"), laptop = world.device("laptop")
        let onPhone = try phone.run { ServerWinsApp() }
        let onLaptop = try laptop.run { ServerWinsApp() }
        try laptop.run { await onLaptop.save("i1", "a") }
        try laptop.run { try await onLaptop.syncEngine.sendChanges() }
        try phone.run { try await onPhone.syncEngine.fetchChanges() }
        try phone.run { await onPhone.save("i1", "b") }
        try laptop.run { await onLaptop.save("i1", "c") }
        try laptop.run { try await onLaptop.syncEngine.sendChanges() }
        try phone.run { try await onPhone.syncEngine.fetchChanges() }
        #expect(lines("app.unsent-edit-dropped", citing: "APPW-2", in: world).count == 1)
    }

    /// A failed save and a failed deletion, not scheduled again: traced unless the app keeps
    /// them in its own queue and says so (`hasPendingUntrackedChanges`).
    @Test(arguments: [false, true])
    func failedChangesTheAppTracksItselfAreNotTraced(tracksItself: Bool) throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try phone.run { ServerWinsApp(tracksFailuresItself: tracksItself) }
        try phone.run { await app.save("i1", "a") }
        try phone.run { try await app.syncEngine.sendChanges() }
        try phone.run { await app.delete("i1") }
        try world.perform("cloud: delete-zone alice")
        try? phone.run { try await app.syncEngine.sendChanges() }
        try world.perform("cloud: quota alice full")
        try phone.run { await app.save("i2", "b") }
        try? phone.run { try await app.syncEngine.sendChanges() }
        let dropped = lines("app.failed-change-dropped", citing: "APPW-1", in: world)
        #expect(try phone.run { await app.untracked.count } == (tracksItself ? 2 : 0))
        #expect(dropped.count == (tracksItself ? 0 : 2), "\(dropped)")
        #expect(dropped.contains { $0.contains("\"record\":\"i1\"") } == !tracksItself)
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
            == (1...9).map { "APPW-\($0)" })
    }
}
