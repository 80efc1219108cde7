import NotesSyncEngine
import SyncLab
import SyncLabEngineKit
import Testing

/// An engine that uses CKDatabase's operations directly, from the app's code.
actor DirectEngine: SyncLabEngine {
    let database: LocalDatabase<NotesMetadata>
    init(database: LocalDatabase<NotesMetadata>) { self.database = database }

    func storeDidSave(_ transactions: [HistoryEntry], syncEngine: CKSyncEngine) async {
        let zone = ZoneID(owner: database.account ?? "", name: ZoneID.defaultZoneName)
        let record = CloudRecord(recordType: "Note", recordName: "direct-1", zone: zone, fields: ["title": .string("A")])
        do {
            let start = syncEngine.now
            let saved = try await syncEngine.database.modifyRecords(
                inZone: zone, saving: [RecordSave(record: record, changedKeys: ["title"])], deleting: [])
            syncEngine.trace("direct.saved", [("results", "\(saved.count)"), ("waited", "\(syncEngine.now > start)")])
            // The same record again without its change tag: a per-item serverRecordChanged.
            let again = try await syncEngine.database.modifyRecords(
                inZone: zone, saving: [RecordSave(record: record, changedKeys: ["title"])], deleting: [])
            if case .failed(_, let error) = again.first {
                syncEngine.trace("direct.conflict", [("code", "\(error.code)"), ("server", "\(error.serverRecord != nil)")])
            }
            let fetched = try await syncEngine.database.records(inZone: zone, named: ["direct-1", "missing"])
            let found = fetched.map { result -> String in
                switch result {
                case .saved(let record): return "found \(record.recordName) \(record.changeTag ?? "-")"
                case .deleted(let name): return "deleted \(name)"
                case .failed(let name, let error): return "failed \(name) \(error.code)"
                }
            }
            syncEngine.trace("direct.fetched", [("results", found.joined(separator: "; "))])
        } catch {
            syncEngine.trace("direct.error", [("error", "\(error.error.code)")])
        }
    }
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
}

@Suite struct CKDatabaseTests {
    @Test func directOperationsAnswerPerItemAtSimulatedTimes() {
        let lab = HostedEngineTests.lab(DirectEngine.self, name: "direct")
        let result = lab.run(HostedEngineTests.scenario, engine: "direct")
        #expect(result.run?.failure == nil, "\(result.problems)")
        let trace = result.traceJSONLines
        #expect(trace.contains("\"kind\":\"direct.saved\",\"details\":{\"results\":\"1\",\"waited\":\"true\"}"), "\(trace)")
        #expect(trace.contains("\"kind\":\"direct.conflict\",\"details\":{\"code\":\"serverRecordChanged"), "\(trace)")
        #expect(trace.contains("found direct-1 ct1; failed missing unknownItem"), "\(trace)")
    }
}
