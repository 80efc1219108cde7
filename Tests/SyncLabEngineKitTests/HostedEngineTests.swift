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

/// How long `WallClockEngine` sleeps on the wall clock.
protocol WallClockSleep { static var duration: Duration { get } }
enum AnHour: WallClockSleep { static let duration = Duration.seconds(3600) }
enum AMillisecond: WallClockSleep { static let duration = Duration.milliseconds(1) }
enum NoTime: WallClockSleep { static let duration = Duration.zero }

actor WallClockEngine<Sleep: WallClockSleep>: SyncLabEngine {
    init(database: LocalDatabase<NotesMetadata>) {}
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        syncEngine.trace("before")
        // Leaves the kernel: a wall-clock sleep. Refused when it is called, whatever its
        // length: a sleep of 1 ms once ended, on a loaded machine, before the task had
        // suspended, and the code after it ran unnoticed (KernelExecutor+Timers.swift).
        do {
            try await Task.sleep(for: Sleep.duration)
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

/// Starts a task it never awaits, then goes on: nothing it does after that reaches the run.
actor FireAndForgetEngine: SyncLabEngine {
    init(database: LocalDatabase<NotesMetadata>) {}
    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        syncEngine.trace("before")
        Task { print("never runs") }
        syncEngine.trace("after")
        await syncEngine.sendChanges()
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

    /// Runs the scenario on `engine` `runs` times: each run must end with the same runtime
    /// error, starting with `prefix`, and the same trace, byte for byte.
    static func expectTheSameFailure<User: SyncLabEngine>(
        _ engine: User.Type, runs: Int, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let lab = Self.lab(engine, name: "escaping")
        var first: (message: String, trace: String)?
        for index in 0..<runs {
            let result = lab.run(Self.scenario, engine: "escaping")
            let failure = try #require(result.run?.failure, "run \(index)", sourceLocation: sourceLocation)
            #expect(!result.passed, sourceLocation: sourceLocation)
            #expect(failure.message.hasPrefix(prefix), "run \(index): \(failure.message)",
                sourceLocation: sourceLocation)
            if let first {
                #expect(failure.message == first.message, "run \(index)", sourceLocation: sourceLocation)
                #expect(result.traceJSONLines == first.trace, "run \(index): another trace",
                    sourceLocation: sourceLocation)
            } else {
                first = (failure.message, result.traceJSONLines)
            }
        }
        return first?.trace ?? ""
    }

    @Test func anUnstructuredTaskEndsTheRunWithARuntimeError() throws {
        _ = try Self.expectTheSameFailure(SleepingEngine.self, runs: 100,
            "phone: storeDidSave: the engine's async code started a task on the global executor")
        let result = Self.lab(SleepingEngine.self, name: "sleepy").run(Self.scenario, engine: "sleepy")
        #expect(result.problems.contains { $0.contains("runtime error: phone: storeDidSave") })
    }

    @Test func whatTheCodeDoesAfterAnEscapeDoesNotReachTheRun() throws {
        let trace = try Self.expectTheSameFailure(FireAndForgetEngine.self, runs: 20,
            "phone: storeDidSave: the engine's async code started a task on the global executor")
        #expect(trace.contains("\"kind\":\"before\""))
        #expect(!trace.contains("\"kind\":\"after\""))
        #expect(!trace.contains("modifyRecords"))
    }

    /// A wall-clock sleep of an hour, a millisecond or no time: refused the same way in every
    /// run, the code after it never runs (the 1 ms sleep once did, on a loaded machine).
    @Test func aWallClockSleepEndsTheRunWithARuntimeError() throws {
        for engine in [WallClockEngine<AnHour>.self, WallClockEngine<AMillisecond>.self,
                       WallClockEngine<NoTime>.self] as [any SyncLabEngine.Type] {
            let trace = try Self.expectTheSameFailure(engine, runs: 100,
                "phone: storeDidSave: the engine's async code called Task.sleep")
            #expect(trace.contains("\"kind\":\"before\""))
            #expect(!trace.contains("\"kind\":\"after\""))
            #expect(!trace.contains("\"kind\":\"threw\""))
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
