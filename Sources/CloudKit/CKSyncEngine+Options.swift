import CKSyncEngineSim
import CloudSim

typealias SimEngine = CKSyncEngineSim.CKSyncEngine

extension CKSyncEngine.FetchChangesContext {
    init(_ context: SimEngine.FetchChangesContext, account: String?) {
        reason = context.reason == .manual ? .manual : .scheduled
        options = CKSyncEngine.FetchChangesOptions(context.options, account: account)
    }
}

extension CKSyncEngine.SendChangesContext {
    init(_ context: SimEngine.SendChangesContext, account: String?) {
        reason = context.reason == .manual ? .manual : .scheduled
        options = CKSyncEngine.SendChangesOptions(context.options, account: account)
    }
}

extension CKSyncEngine.FetchChangesOptions {
    init(_ options: SimEngine.FetchChangesOptions, account: String?) {
        func zones(_ ids: [ZoneID]) -> [CKRecordZone.ID] { ids.map { .of($0, account: account) } }
        switch options.scope {
        case .all: self.init(scope: .all)
        case .zoneIDs(let ids): self.init(scope: .zoneIDs(zones(ids)))
        case .allExcluding(let ids): self.init(scope: .allExcluding(zones(ids)))
        }
    }

    func simulated(account: String) -> SimEngine.FetchChangesOptions {
        func zones(_ ids: [CKRecordZone.ID])
            -> [ZoneID] { ids.map { $0.simulated(account: account) } }
        switch scope {
        case .all: return .init(scope: .all)
        case .zoneIDs(let ids): return .init(scope: .zoneIDs(zones(ids)))
        case .allExcluding(let ids): return .init(scope: .allExcluding(zones(ids)))
        }
    }
}

extension CKSyncEngine.SendChangesOptions {
    init(_ options: SimEngine.SendChangesOptions, account: String?) {
        func zones(_ ids: [ZoneID]) -> [CKRecordZone.ID] { ids.map { .of($0, account: account) } }
        switch options.scope {
        case .all: self.init(scope: .all)
        case .zoneIDs(let ids): self.init(scope: .zoneIDs(zones(ids)))
        case .allExcluding(let ids): self.init(scope: .allExcluding(zones(ids)))
        case .recordIDs(let ids): self.init(scope: .recordIDs(ids.map { .of($0,
            account: account) }))
        }
    }

    func simulated(account: String) -> SimEngine.SendChangesOptions {
        func zones(_ ids: [CKRecordZone.ID])
            -> [ZoneID] { ids.map { $0.simulated(account: account) } }
        switch scope {
        case .all: return .init(scope: .all)
        case .zoneIDs(let ids): return .init(scope: .zoneIDs(zones(ids)))
        case .allExcluding(let ids): return .init(scope: .allExcluding(zones(ids)))
        case .recordIDs(let ids):
            return .init(scope: .recordIDs(ids.map { $0.simulated(account: account) }))
        }
    }
}

extension CKSyncEngine.PendingRecordZoneChange {
    func simulated(account: String) -> SimEngine.PendingRecordZoneChange {
        switch self {
        case .saveRecord(let id): return .saveRecord(id.simulated(account: account))
        case .deleteRecord(let id): return .deleteRecord(id.simulated(account: account))
        }
    }

    init(_ change: SimEngine.PendingRecordZoneChange, account: String?) {
        switch change {
        case .saveRecord(let id): self = .saveRecord(.of(id, account: account))
        case .deleteRecord(let id): self = .deleteRecord(.of(id, account: account))
        }
    }
}

extension CKSyncEngine.PendingDatabaseChange {
    func simulated(account: String) -> SimEngine.PendingDatabaseChange {
        switch self {
        case .saveZone(let zone): return .saveZone(zone.zoneID.simulated(account: account))
        case .deleteZone(let id): return .deleteZone(id.simulated(account: account))
        }
    }

    init(_ change: SimEngine.PendingDatabaseChange, account: String?) {
        switch change {
        case .saveZone(let id): self = .saveZone(CKRecordZone(zoneID: .of(id, account: account)))
        case .deleteZone(let id): self = .deleteZone(.of(id, account: account))
        }
    }
}
