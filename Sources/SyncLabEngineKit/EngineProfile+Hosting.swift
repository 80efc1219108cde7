import CKSyncEngineSim
import CloudSim
import LocalStore
import SyncContract

extension EngineProfile {
    /// The contract's probe points as a hosted engine passes them (around CKSyncEngine's
    /// events), then CKSyncEngine's own (`cksync.EVENT`, just before the delegate handles it).
    public static let hostedProbePoints: [ProbePoint] = [
        ProbePoint("sync.start", "CKSyncEngine begins a fetch or a send (before willFetchChanges/willSendChanges reaches the delegate)"),
        ProbePoint("download.start", "a fetch begins, before its first request"),
        ProbePoint("download.page.fetched", "a page of a zone arrived, before the delegate handles fetchedRecordZoneChanges"),
        ProbePoint("download.page.stored", "the delegate handled the page (its writes are done)"),
        ProbePoint("download.page.saved", "the delegate handled the stateUpdate after the page (tokens persisted)"),
        ProbePoint("download.done", "the fetch's zones are done, before didFetchChanges"),
        ProbePoint("upload.start", "the delegate returned a batch, before its request leaves"),
        ProbePoint("upload.sent", "a modifyRecords request left the device"),
        ProbePoint("upload.done", "the delegate handled sentRecordZoneChanges"),
        ProbePoint("sync.done", "the delegate handled didFetchChanges or didSendChanges"),
    ] + CKSyncEngineSim.CKSyncEngine.probePoints.map {
        ProbePoint($0, "(CKSyncEngine) before the delegate handles \($0.dropFirst("cksync.".count))")
    }

    /// The profile of a user's engine written on CKSyncEngine (`SyncLabEngine`), to register
    /// in a `ScenarioLab` or an `EngineRegistry`; scenarios then name it (`engine NAME`).
    ///
    /// - Parameters:
    ///   - name: what scenarios write after `engine`.
    ///   - catalogue: the rule IDs the engine traces its decisions with (`expect … fired ID`).
    ///   - probePoints: its own probe points (`CKSyncEngine.probe(_:)`), after the contract's
    ///     and CKSyncEngine's.
    ///   - codec: how its records hold the scenario's models (`expect cloud`, the checkers).
    ///   - author: the store author of its own saves (default: its name).
    public static func hosting<User: SyncLabEngine>(
        _ engine: User.Type,
        name: String,
        system: String,
        cataloguePage: String,
        catalogue: RuleCatalogue,
        probePoints: [ProbePoint] = [],
        codec: any RecordCodec,
        author: String? = nil
    ) -> EngineProfile {
        let author = author ?? name
        return EngineProfile(
            name: name,
            seed: "user",
            system: system,
            cataloguePage: cataloguePage,
            catalogue: catalogue,
            probePoints: hostedProbePoints + probePoints,
            stateNames: EngineState.commonNames,
            statements: ["sync"],
            codec: codec,
            author: author,
            makeEngine: { setup in HostedEngine<User>(author: author, pageSize: setup.pageSize) },
            observe: { box, engine in
                HostedObservation<User>(
                    syncData: box.contents(as: HostSyncData<User.Metadata>.self) ?? HostSyncData(),
                    engine: engine as? HostedEngine<User>)
            })
    }
}

/// What the checkers read of a hosted engine: the naming from its metadata, the pending
/// changes from CKSyncEngine's state (in memory while it runs, else as persisted).
struct HostedObservation<User: SyncLabEngine>: EngineObservation {
    let syncData: HostSyncData<User.Metadata>
    let engine: HostedEngine<User>?

    func recordName(of model: ModelID) -> String? { syncData.metadata.recordName(of: model) }

    func model(forRecord name: String) -> ModelID? { syncData.metadata.model(forRecord: name) }

    var pending: [CKSyncEngine.PendingRecordZoneChange] {
        if let sim = engine?.core.sim { return sim.state.pendingRecordZoneChanges }
        return Self.pendingChanges(in: syncData.metadata.stateSerialization)
    }

    var pendingCount: Int { pending.count }

    var hasDownloadedOnce: Bool { engine?.fetchedOnce ?? false }

    var pendingModels: [ModelID] {
        pending.compactMap { change in
            guard case .saveRecord(let id) = change else { return nil }
            return model(forRecord: id.recordName)
        }
    }

    var pendingDeletions: [String] {
        pending.compactMap { change in
            guard case .deleteRecord(let id) = change else { return nil }
            return id.recordName
        }
    }

    /// The pending changes a persisted serialization holds (read through a simulated engine
    /// made from it, which sends nothing).
    static func pendingChanges(in serialization: CKSyncEngine.State.Serialization?) -> [CKSyncEngine.PendingRecordZoneChange] {
        guard let serialization else { return [] }
        let reader = SerializationReader()
        let engine = CKSyncEngineSim.CKSyncEngine(.init(
            database: .privateDatabase, stateSerialization: serialization, delegate: reader,
            automaticallySync: false))
        return engine.state.pendingRecordZoneChanges
    }
}

/// A delegate that is never called (the engine reading a serialization runs nothing).
private final class SerializationReader: CKSyncEngineSim.CKSyncEngineDelegate {
    func handleEvent(_ event: CKSyncEngineSim.CKSyncEngine.Event, syncEngine: CKSyncEngineSim.CKSyncEngine) {}
    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngineSim.CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngineSim.CKSyncEngine
    ) -> CKSyncEngineSim.CKSyncEngine.RecordZoneChangeBatch? { nil }
}
