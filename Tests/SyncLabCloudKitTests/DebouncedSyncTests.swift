import CloudKit
import Combine
import Foundation
import SyncLabTesting
import Testing

/// An app whose engine sends once its edits pause: a Combine `debounce` on the main queue in
/// front of `CKSyncEngine.sendChanges()`, as sync code on Apple platforms writes it.
@Suite struct DebouncedSyncTests {
    final class DebouncedItems: CKSyncEngineDelegate, @unchecked Sendable {
        // `@unchecked`: used by one device's tasks only.
        static let zoneID = CKRecordZone.ID(zoneName: "Items")
        private(set) var items: [String: String] = [:]
        private let edits = PassthroughSubject<Void, Never>()
        private var kept: Set<AnyCancellable> = []
        private(set) var sends: [String] = []
        private(set) lazy var engine: CKSyncEngine = {
            var configuration = CKSyncEngine.Configuration(
                database: CKContainer.default().privateCloudDatabase, stateSerialization: nil,
                delegate: self)
            configuration.automaticallySync = false
            return CKSyncEngine(configuration)
        }()

        init() {
            edits.debounce(for: .seconds(1), scheduler: DispatchQueue.main)
                .sink { [unowned self] in
                    let at = DeviceRuntime.current.map { "\($0.now.microseconds / 1000) ms" }
                    sends.append(at ?? "off device")
                    Task { try? await self.engine.sendChanges() }
                }
                .store(in: &kept)
        }

        func save(_ name: String, _ text: String) {
            items[name] = text
            engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: Self.zoneID))])
            engine.state.add(pendingRecordZoneChanges: [
                .saveRecord(CKRecord.ID(recordName: name, zoneID: Self.zoneID)),
            ])
            edits.send()
        }

        func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}

        func nextRecordZoneChangeBatch(
            _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
        ) async -> CKSyncEngine.RecordZoneChangeBatch? {
            let items = items
            return await CKSyncEngine.RecordZoneChangeBatch(
                pendingChanges: syncEngine.state.pendingRecordZoneChanges
            ) { id in
                guard let text = items[id.recordName] else { return nil }
                let record = CKRecord(recordType: "Item", recordID: id)
                record["text"] = text
                return record
            }
        }
    }

    /// Saves an item at each millisecond given, from the test.
    static func burst(_ times: [Int]) throws -> (SimulatedWorld, DebouncedItems) {
        let world = try SimulatedWorld(seed: 11, devices: [("phone", "alice")])
        let phone = world.device("phone")
        let app = try phone.run { DebouncedItems() }
        for (index, at) in times.enumerated() {
            try world.advance(by: .milliseconds(at) - world.now)
            try phone.run { app.save("item\(index)", "text \(index)") }
        }
        return (world, app)
    }

    @Test func editsInABurstGoUpTogetherOnceTheyPause() throws {
        let (world, app) = try Self.burst([0, 300, 700])
        try world.advance(by: .milliseconds(1600) - world.now)
        #expect(world.cloudRecords(zoneName: "Items", account: "alice").isEmpty,
                "nothing is sent while the edits have not paused for a second")
        try world.settle()
        let names = world.cloudRecords(zoneName: "Items", account: "alice")
            .map(\.recordID.recordName)
        #expect(names == ["item0", "item1", "item2"])
        #expect(app.sends == ["1700 ms"], "one send, a second after the last edit")
    }

    @Test func theSameBurstGivesTheSameTrace() throws {
        let (first, _) = try Self.burst([0, 250, 1400, 1500])
        try first.settle()
        let (second, _) = try Self.burst([0, 250, 1400, 1500])
        try second.settle()
        #expect(first.traceJSONLines == second.traceJSONLines)
        #expect(first.traceJSONLines.contains("app.sleep"))
    }
}
