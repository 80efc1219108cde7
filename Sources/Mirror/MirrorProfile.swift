import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// The `mirror` engine as the registry knows it (docs/MIRROR.md).
public enum MirrorProfile {
    /// The contract's probe points in contract order, then mirror's own (docs/MIRROR.md).
    public static let probePoints = [
        ProbePoint("sync.start", "a request (setup, import or export) begins"),
        ProbePoint("download.start", "the import begins (an export or setup passes it empty)"),
        ProbePoint("download.page.fetched", "a page of the zone arrived; nothing written yet"),
        ProbePoint("download.page.stored",
            "the import save: the page's records and its token together"),
        ProbePoint("download.page.saved", "straight after stored: the same save"),
        ProbePoint("download.done", "the import is done (an export or setup passes it empty)"),
        ProbePoint("upload.start", "the export serialized its records"),
        ProbePoint("upload.sent", "a modifyRecords left the device"),
        ProbePoint("upload.done", "the export's answers are handled"),
        ProbePoint("sync.done", "the request finishes (its event's endDate), also after an error"),
        ProbePoint("mirror.setup.done",
            "(mirror) the account, zone and subscription are set up (MIR-5)"),
        ProbePoint("mirror.import.start", "(mirror) an import request begins (MIR-15)"),
        ProbePoint("mirror.import.done", "(mirror) an import request is done"),
        ProbePoint("mirror.export.start", "(mirror) an export request begins (MIR-12)"),
        ProbePoint("mirror.export.done", "(mirror) an export request is done (MIR-13)"),
        ProbePoint("mirror.reset",
            "(mirror) sync was reset; the trace's sync.reset names the reason (MIR-17..20)"),
        ProbePoint("mirror.store.load-failed", "(mirror) the store failed to load (MIR-1, MIR-2)"),
    ]

    /// The common states, the request kinds, the load failure, and `error(CODE)` for every
    /// CloudKit error code (MIR-22).
    public static let stateNames = EngineState.commonNames
        + ["syncing(setup)", "syncing(import)", "syncing(export)", "error(storeLoadFailed)",
            "waiting(account)"]
        + CloudErrorCode.allCases.map { "error(\($0.description))" }

    public static let profile: EngineProfile = {
        var profile = EngineProfile(
            name: MirrorEngine.name,
            seed: "003",
            system: "SwiftData's built-in CloudKit mirroring (NSPersistentCloudKitContainer)",
            cataloguePage: "docs/MIRROR.md",
            catalogue: MirrorRules.catalogue,
            probePoints: probePoints,
            stateNames: stateNames,
            statements: ["sync", "initialize-schema"],
            codec: MirrorCodec.layout,
            author: MirrorEngine.author,
            cloudNoteRules: cloudNoteRules,
            makeEngine: { setup in
                MirrorEngine(schema: setup.schema, pageSize: setup.pageSize)
            },
            observe: { box, engine in
                MirrorObservation(syncData: box.contents(as: MirrorSyncData.self)
                    ?? MirrorSyncData(),
                                  engine: engine as? MirrorEngine)
            },
            validateSchema: { schema in MirrorModelValidation.validate(schema) }
        )
        // MIR-27: a batch delete is in the persistent history, and the container hears of
        // it as of any other change of the store: it is exported like a save's deletions.
        profile.observesBatchDeletes = true
        // MIR-11: `sync` only waits, and a launch imports (MIR-9).
        profile.healRelaunchesToDownload = true
        return profile
    }()
}

extension MirrorProfile {
    /// The rules the cloud's neutral notes show for mirror (docs/CLOUDSIM.md *Notes*): an
    /// export re-creating a deleted record under `.changedKeys` writes every attribute, so the
    /// whole record comes back and the deletion is lost (MIRW-2, MIR-12).
    @Sendable static func cloudNoteRules(_ note: CloudNote) -> [String] {
        note.kind == "record.recreated"
            && note.value(of: "policy") == "changedKeys" ? ["MIRW-2"] : []
    }
}

/// What checkers read of mirror: the metadata on its disk, and what is pending: the engine's
/// count while it runs, the count written with the metadata after its last event once killed.
struct MirrorObservation: BoundObservation {
    let syncData: MirrorSyncData
    let engine: MirrorEngine?

    var pendingCount: Int { pendingModels.count + pendingDeletions.count }

    var pendingModels: [ModelID] { engine?.pendingModels ?? syncData.lastPendingModels }

    var pendingDeletions: [String] { engine?.pendingDeletes ?? syncData.lastPendingDeletes }

    var hasDownloadedOnce: Bool { engine != nil && syncData.hasImported }
}
