import CloudSim
import Kernel
import LocalStore
import SortedMaps
import SyncContract

/// What `outbound` keeps on disk: the record name of each model it uploaded.
struct OutboundSyncData: EngineSyncData {
    var recordNames: [ModelID: String] = [:]
    var models: [String: ModelID] = [:]
}

/// A sixth engine, small on purpose: it uploads every saved change at once as a whole record
/// into the default zone (OUT-1, OUT-2, OUTW-2) and never downloads anything (OUTW-1). It lives in
/// this folder and reaches SyncLab through one registration, as a user's engine does.
final class OutboundEngine: SyncEngine {
    typealias SyncData = OutboundSyncData
    static let author = "outbound"

    let schema: Schema
    private var position: Int64 = 0
    private var nextRequest: UInt64 = 0
    private var inFlight: Set<RequestID> = []

    init(schema: Schema) {
        self.schema = schema
    }

    var state: EngineState { inFlight.isEmpty ? .idle : .syncing }
    func isIdle(now: SimTime) -> Bool { inFlight.isEmpty }
    func setAutosync(_ enabled: Bool) {}

    func handle(_ event: EngineEvent, context: inout EngineContext<SyncData>) -> [EngineEffect] {
        switch event {
        case .launch(let waiter):
            position = context.store.lastHistoryPosition
            let note = EngineEffect.trace(kind: "download.never", details: [], rules: ["OUTW-1"])
            return [note] + (waiter.map { [.completed($0)] } ?? [])
        case .storeSaved:
            return upload(&context)
        case .response(let id, let response):
            guard inFlight.remove(id) != nil else { return [] }
            let failed = if case .failure = response { true } else { false }
            return [.trace(kind: failed ? "upload.failed" : "upload.done", details: [
                TraceField("request", .string(id.description)),
            ], rules: ["OUT-1"])]
        case .resume:
            preconditionFailure("outbound passes no probe point, so nothing can be resumed")
        case .appCall(_, let waiter):
            return waiter.map { [.completed($0)] } ?? []
        case .push, .timer, .storeReplaced, .observerAttached, .accountChanged, .networkChanged:
            return []
        }
    }

    /// Every change since the last upload: saves as whole records (`allKeys`), deletions by
    /// name, one request, into the default zone of the account signed in now.
    private func upload(_ context: inout EngineContext<SyncData>) -> [EngineEffect] {
        let entries = context.store.history(after: position)
        position = context.store.lastHistoryPosition
        guard let account = context.account else { return [] }
        let zone = ZoneID(owner: account, name: ZoneID.defaultZoneName)
        var saves: [RecordSave] = []
        var deletes: [String] = []
        for entry in entries where entry.author != Self.author {
            for change in entry.changes {
                switch change {
                case .inserted(let id, let entity), .updated(let id, let entity, _):
                    guard let description = schema.entity(named: entity),
                          description.isSynchronized, let model = context.store.model(id)
                    else { continue }
                    let name = recordName(of: id, context: &context)
                    var fields: SortedMap<String, CloudValue> = [:]
                    for attribute in description.synchronizedAttributes {
                        if let value = model.values[attribute.name] {
                            fields[attribute.name] = FieldValues.cloudValue(value)
                        }
                    }
                    let record = CloudRecord(recordType: entity, recordName: name, zone: zone,
                                             fields: fields)
                    saves.append(RecordSave(record: record, changedKeys: fields.keys.sorted()))
                case .deleted(let id, _, _):
                    if let name = context.syncData.recordNames[id] { deletes.append(name) }
                }
            }
        }
        guard !saves.isEmpty || !deletes.isEmpty else { return [] }
        nextRequest += 1
        let id = RequestID(nextRequest)
        inFlight.insert(id)
        return [
            .write(DiskWrite(syncData: SyncDataBox(context.syncData))),
            .trace(kind: "upload.sent", details: [
                TraceField("saves", .int(Int64(saves.count))),
                TraceField("deletes", .int(Int64(deletes.count))),
            ], rules: saves.isEmpty ? ["OUT-2"] : ["OUT-1", "OUT-2", "OUTW-2"]),
            .send(id, .modifyRecords(scope: .privateDatabase, zone: zone, saves: saves,
                                     deletes: deletes, policy: .allKeys, atomic: false)),
        ]
    }

    private func recordName(of id: ModelID, context: inout EngineContext<SyncData>) -> String {
        if let known = context.syncData.recordNames[id] { return known }
        let name = "\(context.device)-\(id.rawValue)"
        context.syncData.recordNames[id] = name
        context.syncData.models[name] = id
        return name
    }
}
