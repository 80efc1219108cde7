import CloudKit
import CloudKitNotes
import Foundation
import SyncLabTesting
import Testing
import TestSupport
import Kernel

@Suite(.serialized) struct DriverTests {
    func makeWorld(seed: UInt64 = 1) throws -> SimulatedWorld {
        try SimulatedWorld(seed: seed, devices: [("phone", "alice"), ("laptop", "alice")])
    }

    func openApp(on device: SimulatedDevice, automaticallySync: Bool = false) throws -> NotesStore {
        let url = device.url(for: .documentDirectory).appendingPathComponent("notes.json")
        return try device.run { NotesStore(fileURL: url, automaticallySync: automaticallySync) }
    }

    static func note(_ id: String, _ text: String, count: Int = 1, pinned: Bool = false) -> Note {
        Note(id: id, text: text, count: count, pinned: pinned, modified: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func aNoteSentOnOneDeviceIsFetchedOnTheOther() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let appA = try openApp(on: phone)
        let appB = try openApp(on: laptop)
        try phone.run { try await appA.save([Self.note("n1", "milk", count: 3, pinned: true)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        #expect(try laptop.run { await appB.notes.isEmpty })
        try laptop.run { try await appB.syncEngine.fetchChanges() }
        let note = try laptop.run { await appB.notes["n1"] }
        #expect(note == Self.note("n1", "milk", count: 3, pinned: true))
        let records = world.cloudRecords(zoneName: "Notes", account: "alice")
        #expect(records.map(\.recordID.recordName) == ["n1"])
        #expect(records.first?["count"] as? Int64 == 3)
        #expect(records.first?["pinned"] as? Bool == true)
    }

    @Test func theMainActorAndUnstructuredTasksRunOnTheDevice() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.save([Self.note("n1", "a", count: 1, pinned: false)]) }
        let shown = try phone.run { await app.shownCount }
        #expect(shown == 1)
    }

    @Test func aPollingLoopSleepsInSimulatedTime() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let appA = try openApp(on: phone)
        let appB = try openApp(on: laptop)
        try phone.run { try await appA.save([Self.note("n1", "a", count: 1, pinned: false)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        let before = world.now
        let polls = try laptop.run { try await appB.waitForNotes() }
        #expect(polls == 1)
        #expect(world.now - before >= .seconds(60))
    }

    @Test func filesSurviveAKillAndAreGoneAfterAReinstall() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.save([Self.note("n1", "a", count: 1, pinned: false)]) }
        try phone.kill()
        try phone.launch()
        let relaunched = try openApp(on: phone)
        #expect(try phone.run { await relaunched.notes.count } == 1)
        let other = try openApp(on: world.device("laptop"))
        #expect(try world.device("laptop").run { await other.notes.isEmpty })
        try phone.reinstall()
        let fresh = try openApp(on: phone)
        #expect(try phone.run { await fresh.notes.isEmpty })
    }

    @Test(arguments: [FileManager.SearchPathDirectory.documentDirectory,
                      .applicationSupportDirectory, .cachesDirectory])
    func theStandardDirectoriesAreEachDevicesOwn(_ place: FileManager.SearchPathDirectory) throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        @Sendable func write(_ text: String) throws {
            let url = FileManager.default.urls(for: place, in: .userDomainMask)[0]
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url.appendingPathComponent("owner.txt"))
        }
        @Sendable func read() -> String {
            let url = FileManager.default.urls(for: place, in: .userDomainMask)[0]
            let data = try? Data(contentsOf: url.appendingPathComponent("owner.txt"))
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "none"
        }
        try phone.run { try write("phone") }
        try laptop.run { try write("laptop") }
        #expect(try phone.run { read() } == "phone")
        #expect(try laptop.run { read() } == "laptop")
        let inherited = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? ""
        #expect(!inherited.contains("synclab-"), "child processes inherit nothing of SyncLab's")
        let saved = phone.url(for: place).appendingPathComponent("owner.txt")
        #expect(try String(contentsOf: saved, encoding: .utf8) == "phone")
        try phone.kill()
        try phone.launch()
        #expect(try phone.run { read() } == "phone")
        try phone.reinstall()
        #expect(try phone.run { read() } == "none")
        #expect(try laptop.run { read() } == "laptop")
    }

    @Test func standardUserDefaultsAreEachDevicesOwn() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let key = "driverTests.engineState"
        @Sendable func read() -> String { UserDefaults.standard.string(forKey: key) ?? "none" }
        let own = UserDefaults.standard.string(forKey: key)
        try phone.run { UserDefaults.standard.set("phone", forKey: key) }
        #expect(try laptop.run { read() } == "none")
        try laptop.run { UserDefaults.standard.set("laptop", forKey: key) }
        #expect(try phone.run { read() } == "phone")
        #expect(try laptop.run { read() } == "laptop")
        #expect(UserDefaults.standard.string(forKey: key) == own, "the test process keeps its own")
        try phone.kill()
        try phone.launch()
        #expect(try phone.run { read() } == "phone")
        try phone.reinstall()
        #expect(try phone.run { read() } == "none")
        #expect(try laptop.run { read() } == "laptop")
    }

    @Test func cancelOperationsDropsTheOperationsWaitingBehindTheRunningOne() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.save([Self.note("n1", "a")]) }
        try phone.run {
            Task { try? await app.syncEngine.fetchChanges() }
            Task { try? await app.syncEngine.sendChanges() }
            await Task.yield()
            await app.syncEngine.cancelOperations()
        }
        try world.settle()
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").isEmpty,
                "the send queued behind the fetch was cancelled")
        #expect(try phone.run { await app.syncEngine.state.pendingRecordZoneChanges.count } == 1)
        try phone.run { try await app.syncEngine.sendChanges() }
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").count == 1)
    }

    @Test func aLostConflictLeavesOneChangePendingAndThrows() throws {
        let world = try makeWorld()
        let (phone, laptop) = (world.device("phone"), world.device("laptop"))
        let appA = try openApp(on: phone)
        let appB = try openApp(on: laptop)
        try phone.run { try await appA.save([Self.note("n1", "a", count: 5, pinned: false)]) }
        try phone.run { try await appA.syncEngine.sendChanges() }
        try laptop.run { try await appB.save([Self.note("n1", "b", count: 2, pinned: false)]) }
        let error = #expect(throws: CKError.self) { try laptop.run { try await appB.syncEngine.sendChanges() } }
        #expect(error?.code == .partialFailure)
        #expect(try laptop.run { await appB.syncEngine.state.pendingRecordZoneChanges.count } == 1)
        // Both edits carry the same time: the later-edit rule keeps the laptop's own.
        #expect(try laptop.run { await appB.notes["n1"]?.count } == 2)
    }

    @Test func faultsFromTheScenarioFormatReachTheApp() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.save([Self.note("n1", "a", count: 1, pinned: false)]) }
        try world.perform("cloud: delete-zone alice")
        // The app adds its zone with every save, so the send makes the zone again first.
        try phone.run { try await app.syncEngine.sendChanges() }
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").map(\.recordID.recordName) == ["n1"])
        #expect(throws: SimulatedWorld.Failure.self) { try world.perform("phone: fly-away") }
    }

    @Test func offlineTheSchedulerHoldsAutomaticSendsUntilTheNetworkReturns() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone, automaticallySync: true)
        try world.settle()
        try phone.goOffline()
        try phone.run { try await app.save([Self.note("n1", "a")]) }
        try world.advance(by: .seconds(600))
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").isEmpty)
        let held = world.traceJSONLines
        #expect(held.contains("cksync.waiting-for-network"))
        #expect(!held.contains("networkUnavailable"), "nothing went out while offline")
        try phone.goOnline()
        try world.settle()
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").map(\.recordID.recordName) == ["n1"])
    }

    @Test func aManualSendWhileOfflineThrowsNetworkUnavailable() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let app = try openApp(on: phone)
        try phone.run { try await app.save([Self.note("n1", "a")]) }
        try phone.goOffline()
        let error = #expect(throws: CKError.self) { try phone.run { try await app.syncEngine.sendChanges() } }
        #expect(error?.code == .networkUnavailable)
        try phone.goOnline()
        try phone.run { try await app.syncEngine.sendChanges() }
        #expect(world.cloudRecords(zoneName: "Notes", account: "alice").map(\.recordID.recordName) == ["n1"])
    }

    @Test func codeThatWaitsForAnotherThreadFailsTheRunWithAReason() throws {
        let world = try makeWorld()
        let phone = world.device("phone")
        let resumed = DispatchSemaphore(value: 0)
        let error = #expect(throws: SimulatedWorld.Failure.self) {
            try phone.run {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    // Late enough that the task has suspended: one resumed before that goes on
                    // at once, unseen (docs/BRING-YOUR-OWN-ENGINE.md, Determinism).
                    Thread {
                        Thread.sleep(forTimeInterval: 0.2)
                        continuation.resume()
                        resumed.signal()
                    }.start()
                }
            }
        }
        #expect(error?.description.contains("a Thread, a DispatchQueue") == true, "\(String(describing: error))")
        // The world (and the device's executor the late job goes to) outlives the thread.
        resumed.wait()
        withExtendedLifetime(world) {}
    }

    /// The example's story in two processes: byte-identical traces for a seed.
    @Test(arguments: [1, 5]) func theSameSeedGivesTheSameTraceInTwoProcesses(seed: Int) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("cloudkit-notes-trace")
        let tool = FileManager.default.isExecutableFile(atPath: binary.path)
            ? binary : TestSupport.repositoryRoot.appendingPathComponent(".build/debug/cloudkit-notes-trace")
        let first = try TestSupport.run(tool, ["\(seed)"])
        let second = try TestSupport.run(tool, ["\(seed)"])
        #expect(first.status == 0, "\(first.standardError)")
        let events = TraceEvent.decodedLines(first.standardOutput)
        #expect(events.contains { $0.kind == "cksync.event" })
        #expect(events.count > 50)
        #expect(first.standardOutput == second.standardOutput)
    }

    @Test func theSameSeedGivesTheSameTraceTwentyTimes() throws {
        var traces: Set<String> = []
        for _ in 0..<20 {
            let world = try makeWorld(seed: 7)
            let (phone, laptop) = (world.device("phone"), world.device("laptop"))
            let appA = try openApp(on: phone, automaticallySync: true)
            let appB = try openApp(on: laptop, automaticallySync: true)
            try phone.run { try await appA.save([Self.note("n1", "a", count: 1, pinned: false)]) }
            try laptop.run { try await appB.save([Self.note("n2", "b", count: 2, pinned: true)]) }
            try world.settle()
            try world.advance(by: .seconds(30))
            traces.insert(world.traceJSONLines)
        }
        #expect(traces.count == 1)
    }
}
