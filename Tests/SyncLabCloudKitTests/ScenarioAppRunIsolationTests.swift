import CloudKit
import Foundation
import SyncLab
import SyncLabTesting
import Testing

/// Each run of a scenario launches its devices fresh, however many runs one process makes
/// (a sweep, a shrink, a `--doublecheck`): what the app kept in `UserDefaults` during one
/// run is not there in the next.
@Suite struct ScenarioAppRunIsolationTests {
    /// An app that counts its launches in `UserDefaults` and shows the count in every model it
    /// was asked to insert (their names kept there too).
    final class LaunchCounter: ScenarioApp, @unchecked Sendable {
        static let key = "launches"
        let launches: Int

        init(launches: Int) { self.launches = launches }

        static func launch(in container: AppContainer) async -> LaunchCounter {
            let launches = UserDefaults.standard.integer(forKey: key) + 1
            UserDefaults.standard.set(launches, forKey: key)
            return LaunchCounter(launches: launches)
        }

        func apply(_ edits: [ScenarioEdit]) async throws {
            let names = UserDefaults.standard.stringArray(forKey: "names") ?? []
            UserDefaults.standard.set(names + edits.map(\.id), forKey: "names")
        }

        func models() async -> [ScenarioModel] {
            (UserDefaults.standard.stringArray(forKey: "names") ?? []).map {
                ScenarioModel(id: $0, entity: "Tally", values: ["count": .int(launches)])
            }
        }
    }

    /// An app with a sync engine that keeps a weak reference to the runtime it was launched on.
    final class RuntimeWitness: ScenarioApp, CKSyncEngineDelegate, @unchecked Sendable {
        nonisolated(unsafe) static weak var launchedOn: DeviceRuntime?
        var engine: CKSyncEngine?

        static func launch(in container: AppContainer) async -> RuntimeWitness {
            launchedOn = DeviceRuntime.current
            let app = RuntimeWitness()
            app.engine = CKSyncEngine(CKSyncEngine.Configuration(
                database: CKContainer(identifier: "iCloud.test.witness").privateCloudDatabase,
                stateSerialization: nil, delegate: app))
            return app
        }

        func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}

        func nextRecordZoneChangeBatch(
            _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
        ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }

        func apply(_ edits: [ScenarioEdit]) async throws {}

        func models() async -> [ScenarioModel] { [] }
    }

    static let story = """
        scenario "A device's second launch sees its first"
        engine launches
        seed 1

        entity Tally {
          count: Int = 0
        }

        account alice
        device phone on alice

        phone: insert Tally tally
        settle
        expect phone: tally count=1
        phone: kill
        phone: launch
        expect phone: tally count=2
        """

    @Test func aSecondRunInTheSameProcessStartsFromNothing() {
        var lab = ScenarioLab()
        lab.register(.scenarioApp(LaunchCounter.self, name: "launches", zoneNames: ["Tallies"]))
        for run in 1...2 {
            let result = lab.run(Self.story, file: "launches.scenario")
            #expect(result.problems == [], "run \(run)")
            #expect(result.run?.passed == true)
        }
    }

    /// A run's devices go with it: a sweep of an app's engine keeps no run's runtime, its
    /// engines or the app's objects (they held each other, and 10,000 seeds took 2.6 GB).
    @Test func aRunsDeviceRuntimeIsFreedWithIt() {
        var lab = ScenarioLab()
        lab.register(.scenarioApp(RuntimeWitness.self, name: "witness", zoneNames: ["Z"]))
        let result = lab.run(Self.story.replacingOccurrences(of: "engine launches",
            with: "engine witness").replacingOccurrences(of: "expect phone: tally count=1\n",
            with: "").replacingOccurrences(of: "expect phone: tally count=2", with: ""),
            file: "witness.scenario")
        #expect(result.problems == [])
        #expect(result.run != nil)
        #expect(RuntimeWitness.launchedOn == nil, "the last launch's runtime outlived its run")
    }
}
