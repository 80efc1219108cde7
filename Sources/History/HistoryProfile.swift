import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// The `history` engine as the registry knows it (docs/HISTORY.md).
public enum HistoryProfile {
    /// The contract's probe points in contract order, then history's own (docs/HISTORY.md).
    public static let probePoints = [
        ProbePoint("sync.start",
            "an operation begins: enable, push(), a debounced pull, sync, the end of a backoff"),
        ProbePoint("download.start",
            "the pull's first scope begins (a push-only run passes it empty)"),
        ProbePoint("download.page.fetched", "a zone page arrived; nothing written yet"),
        ProbePoint("download.page.stored", "the page's upserts and deletes are saved"),
        ProbePoint("download.page.saved", "the zone token is saved"),
        ProbePoint("download.done",
            "the last scope's pull completed (a push-only run passes it empty)"),
        ProbePoint("upload.start",
            "pushStarted: the changes are read and the token staged (HIS-7)"),
        ProbePoint("upload.sent", "one of the push's requests left (inserts, updates, deletions)"),
        ProbePoint("upload.done", "that request's answer is handled"),
        ProbePoint("sync.done", "the operation returns (success or error)"),
        ProbePoint("history.token.staged",
            "(history) a push staged its history token in memory (HIS-7)"),
        ProbePoint("history.token.committed",
            "(history) a successful push persisted the token (HIS-7, HIS-8)"),
        ProbePoint("history.pull.scope.start",
            "(history) the pull of a scope begins: private, then shared (HIS-22)"),
        ProbePoint("history.db-token.saved",
            "(history) a scope's database token is saved, after its zones (HIS-22)"),
        ProbePoint("history.backoff.start", "(history) an error started a pause (HIS-29, HIS-30)"),
        ProbePoint("history.backoff.end", "(history) the pause ended: push, then pull (HIS-29)"),
        ProbePoint("history.purge", "(history) deleted zones purged every local model (HIS-23)"),
        ProbePoint("history.debounce.fired",
            "(history) the 1 s window of silent pushes closed (HIS-13)"),
    ]

    /// The common states, then history's own (docs/HISTORY.md, "States"): an `error(CODE)`
    /// for every `SyncError` `reportError` can show: HIS-32's four, and the zone errors a
    /// rebuild meets again (HIS-27, HIS-28 do not recover inside their own recovery).
    public static let stateNames = EngineState.commonNames + [
        "paused(rateLimited)", "paused(serviceUnavailable)", "error(quotaExceeded)",
        "error(partialFailure)", "error(authenticationFailed)", "error(unknown)",
        "error(zoneNotFound)", "error(userDeletedZone)", "disabled",
    ]

    public static let profile: EngineProfile = {
        var profile = EngineProfile(
            name: HistoryEngine.name,
            seed: "002",
            system: "the CloudSyncKit of the tutorial: a History token drives push, CloudKit "
                + "tokens drive pull",
            cataloguePage: "docs/HISTORY.md",
            catalogue: HistoryRules.catalogue,
            probePoints: probePoints,
            stateNames: stateNames,
            statements: ["sync", "stop", "start", "share", "accept", "unshare", "remove", "leave"],
            codec: HistoryRecords.codec,
            author: HistoryEngine.author,
            // The cloud's neutral note of a changedKeys save re-creating a deleted record is
            // HISW-8 on history (docs/CLOUDSIM.md, *Notes*).
            cloudNoteRules: { note in
                note.kind == "record.recreated"
                    && note.value(of: "policy") == "changedKeys" ? ["HISW-8"] : []
            },
            makeEngine: { setup in
                HistoryEngine(schema: setup.schema, pageSize: setup.pageSize)
            },
            observe: { box, engine in
                HistoryObservation(
                    syncData: box.contents(as: HistorySyncData.self) ?? HistorySyncData(),
                    engine: engine as? HistoryEngine)
            },
            observeStopped: { box, store, schema in
                HistoryObservation(
                    syncData: box.contents(as: HistorySyncData.self) ?? HistorySyncData(),
                    engine: nil, stopped: (store, schema))
            }
        )
        profile.policyTables = [PolicyTable(title: "Recovery policy (HIS-26..HIS-33)",
            lines: HistoryRecovery.printed)]
        return profile
    }()
}

/// What checkers read of history: the record names on its disk; the models in unconsumed
/// history after its persisted token (HISW-1b: a change behind a committed token is not
/// pending), read from the running engine's store, or from the disk's while the app is not
/// running (the history is on disk: what the next launch pushes is pending, HIS-37).
struct HistoryObservation: BoundObservation {
    let syncData: HistorySyncData
    let engine: HistoryEngine?
    /// The disk's store and the launch schema, while the app is not running.
    var stopped: (store: Store, schema: Schema)? = nil

    var pendingModels: [ModelID] {
        if let stopped {
            return HistoryEngine.unconsumedModels(stopped.store, after: syncData.persistedToken,
                schema: stopped.schema)
        }
        guard let engine, let store = engine.lastStore else { return [] }
        return engine.unconsumedModels(store, after: syncData.persistedToken)
    }

    var pendingCount: Int { pendingModels.count }

    var hasDownloadedOnce: Bool { engine?.hasPulledOnce ?? false }
}
