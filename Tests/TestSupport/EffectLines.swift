import CloudSim
import SyncContract

/// Effects described in one short line each, so a test compares them exactly and a failure
/// reads at a glance.
public enum EffectLines {
    /// Each effect in one short line, for exact comparison: `trace KIND [RULES]`,
    /// `send KIND …`, `timer NAME +DELAY`, `cancel NAME`, `probe NAME`, `write store+syncData`,
    /// `completed W`, `failed W: REASON`.
    public static func describe(_ effects: [EngineEffect]) -> [String] {
        effects.map(describe)
    }

    public static func describe(_ effect: EngineEffect) -> String {
        switch effect {
        case .send(_, let request): return "send " + describe(request)
        case .setTimer(let timer, let delay): return "timer \(timer) +\(delay)"
        case .cancelTimer(let timer): return "cancel \(timer)"
        case .probe(let name, _): return "probe \(name)"
        case .trace(let kind, _, let rules):
            return "trace \(kind) [\(rules.joined(separator: ", "))]"
        case .completed(let waiter): return "completed \(waiter.rawValue)"
        case .failed(let waiter, let reason): return "failed \(waiter.rawValue): \(reason)"
        case .write(let write):
            var parts: [String] = []
            if case .some = write.store { parts.append("store") }
            if case .some = write.syncData { parts.append("syncData") }
            return "write " + parts.joined(separator: "+")
        }
    }

    /// A request in one line: its kind, and what a test tells requests of that kind by.
    public static func describe(_ request: CloudRequest) -> String {
        switch request {
        case .modifyZones(_, let save, let delete):
            return "modifyZones save \(save.map(\.name)) delete \(delete.map(\.name))"
        case .fetchZoneChanges(_, let zone, let token, _):
            return "fetchZoneChanges \(zone.name)" + (token == nil ? " from the start" : "")
        case .fetchDatabaseChanges(let scope, let token):
            return "fetchDatabaseChanges \(scope)" + (token == nil ? " from the start" : "")
        case .modifyRecords(_, let zone, let saves, let deletes, let policy, _):
            return "modifyRecords \(zone.name) saves \(saves.map(\.record.recordType)) "
                + "deletes \(deletes.count) \(policy)"
        default:
            return request.kind
        }
    }
}
