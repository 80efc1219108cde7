import Foundation
import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing
import TestSupport

/// Engines that break the executor's rules: each run must end with a clear runtime error.
actor SleepingEngine: SyncLabEngine {
    init(database: LocalDatabase<NotesMetadata>) {}
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        // Leaves the kernel: an unstructured task runs on the global executor.
        _ = await Task { 1 }.value
    }
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
}

actor WallClockEngine: SyncLabEngine {
    init(database: LocalDatabase<NotesMetadata>) {}
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        syncEngine.trace("before")
        // Leaves the kernel: a wall-clock sleep resumes from the global executor's timer.
        // An hour, not a millisecond: on a loaded machine a 1 ms sleep once ended while the
        // run still drained and the code after it ran unnoticed (BRING-YOUR-OWN-ENGINE.md).
        do {
            try await Task.sleep(for: .seconds(3600))
            syncEngine.trace("after")
        } catch {
            syncEngine.trace("threw")
        }
    }
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
}

actor ReentrantEngine: SyncLabEngine {
    init(database: LocalDatabase<NotesMetadata>) {}
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {}
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        if case .willFetchChanges = event { await syncEngine.sendChanges() }
    }
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
}

/// A well-behaved engine that waits in simulated time: `sleep(for:)` and `sendChanges()`.
actor PatientEngine: SyncLabEngine {
    let database: LocalDatabase<NotesMetadata>
    init(database: LocalDatabase<NotesMetadata>) { self.database = database }
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        let before = syncEngine.now
        await syncEngine.sleep(for: .seconds(5))
        syncEngine.trace("slept", [("from", "\(before)"), ("to", "\(syncEngine.now)")])
        await syncEngine.sendChanges()
        syncEngine.trace("sent", [("at", "\(syncEngine.now)")])
    }
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
}

@Suite struct HostedEngineTests {
    static let scenario = """
        scenario "One save"
        entity Note {
          title: String = ""
        }
        account alice
        device phone on alice
        phone: insert Note n1 title="A"
        settle
        """

    static func lab<User: SyncLabEngine>(_ engine: User.Type, name: String) -> ScenarioLab {
        var lab = ScenarioLab(engines: EngineRegistry())
        lab.register(EngineProfile.hosting(
            engine, name: name, system: "a test engine", cataloguePage: "README.md",
            catalogue: NotesProfile.catalogue, codec: NotesCodec()))
        return lab
    }

    @Test func anUnstructuredTaskEndsTheRunWithARuntimeError() throws {
        let result = Self.lab(SleepingEngine.self, name: "sleepy").run(Self.scenario, engine: "sleepy")
        let failure = try #require(result.run?.failure)
        #expect(failure.message.hasPrefix("phone: storeDidSave: a job of the engine's async code came back")
            || failure.message.hasPrefix("phone: storeDidSave: the engine's async code is suspended"),
            "\(failure.message)")
        #expect(!result.passed)
        #expect(result.problems.contains { $0.contains("runtime error: phone: storeDidSave") })
    }

    @Test func aWallClockSleepEndsTheRunWithARuntimeError() throws {
        for _ in 0..<5 {
            let result = Self.lab(WallClockEngine.self, name: "wall").run(Self.scenario, engine: "wall")
            let failure = try #require(result.run?.failure)
            #expect(failure.message.hasPrefix("phone: storeDidSave: "), "\(failure.message)")
            #expect(result.traceJSONLines.contains("\"kind\":\"before\""))
            #expect(!result.traceJSONLines.contains("\"kind\":\"after\""))
        }
    }

    @Test func callingTheEngineFromItsDelegateIsARuntimeError() throws {
        let result = Self.lab(ReentrantEngine.self, name: "reentrant").run(Self.scenario, engine: "reentrant")
        let failure = try #require(result.run?.failure)
        #expect(failure.message.contains("sendChanges() was called from inside a delegate callback"),
            "\(failure.message)")
    }

    @Test func simulatedSleepsAndOperationsResumeAtSimulatedTimes() {
        let result = Self.lab(PatientEngine.self, name: "patient").run(Self.scenario, engine: "patient")
        #expect(result.run?.failure == nil, "\(result.problems)")
        let lines = result.traceJSONLines.split(separator: "\n")
        let slept = lines.first { $0.contains("\"kind\":\"slept\"") }.map(String.init) ?? ""
        #expect(slept.contains("\"to\":\"5s\""), "\(slept)")
        #expect(lines.contains { $0.contains("\"kind\":\"sent\"") })
    }

    @Test func theExplorerRunsAUserEngine() throws {
        var lab = ScenarioLab()
        lab.register(NotesProfile.profile)
        let exploration = lab.explorer("""
            scenario "Explore notes"
            engine notes
            entity Note {
              title: String = ""
              body: String?
            }
            account alice
            device phone on alice
            device laptop on alice
            chaos workload 6 operations on Note by phone, laptop every 200ms..2s
            """, file: "notes.chaos")
        let explorer = try #require(exploration.explorer, "\(exploration.diagnostics)")
        let (result, divergence) = explorer.runTwice(seed: 1)
        #expect(divergence == nil, "\(divergence.map(String.init(describing:)) ?? "")")
        #expect(result.events > 0)
    }

    /// Same scenario and seed, two processes: byte-identical traces (the async engine too).
    @Test(arguments: ["Scenarios/tour/02-offline-edit-merges-per-key.scenario",
                      "Scenarios/tour/03-deletion-beats-an-edit.scenario"])
    func theSameSeedGivesTheSameTraceInTwoProcesses(_ file: String) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("notes-trace")
        let tool = FileManager.default.isExecutableFile(atPath: binary.path)
            ? binary : TestSupport.repositoryRoot.appendingPathComponent(".build/debug/notes-trace")
        let first = try TestSupport.run(tool, [file, "11"])
        let second = try TestSupport.run(tool, [file, "11"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("\"cksync.event\""))
        #expect(first.standardOutput.split(separator: "\n").count > 100)
        #expect(first.standardOutput == second.standardOutput)
    }
}
