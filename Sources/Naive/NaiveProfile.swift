import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// The `naive` engine as the registry knows it (docs/NAIVE.md).
public enum NaiveProfile {
    /// The contract's probe points in contract order, then naive's own (docs/NAIVE.md).
    public static let probePoints = [
        ProbePoint("sync.start", "an operation begins: a save or delete is created, or a download"),
        ProbePoint("download.start",
            "a download sends fetchDatabaseChanges (a save passes it empty)"),
        ProbePoint("download.page.fetched", "a page of a zone arrived; nothing written yet"),
        ProbePoint("download.page.stored", "the page's records are written to the store"),
        ProbePoint("download.page.saved", "straight after stored: there is no zone token to save"),
        ProbePoint("download.done", "the zone fetches completed (a save passes it empty)"),
        ProbePoint("upload.start", "the save or delete exists, before its request leaves"),
        ProbePoint("upload.sent", "the request left the device"),
        ProbePoint("upload.done", "its completion is logged, or a retry scheduled"),
        ProbePoint("sync.done", "the operation finishes (also after an error)"),
        ProbePoint("naive.db-token.saved", "(naive) the database token is saved, before any zone "
            + "is fetched: the window of NAIVEW-6"),
        ProbePoint("naive.zone-fetch.start",
            "(naive) a zone fetch from a nil token begins (NAIVE-8)"),
        ProbePoint("naive.retry.scheduled",
            "(naive) a retry of the same operation is due (NAIVE-6)"),
        ProbePoint("naive.error.logged",
            "(naive) an error was printed and the operation dropped (NAIVE-6)"),
    ]

    /// Only the common states: errors never change naive's state (NAIVEW-9).
    public static let stateNames = EngineState.commonNames

    public static let profile = EngineProfile(
        name: NaiveEngine.name,
        seed: "004",
        system: "the article's CloudKitManager: fire-and-forget saves, query subscriptions, one "
            + "token",
        cataloguePage: "docs/NAIVE.md",
        catalogue: NaiveRules.catalogue,
        probePoints: probePoints,
        stateNames: stateNames,
        statements: ["sync"],
        codec: NaiveRecords.codec(),
        author: NaiveEngine.author,
        cloudNoteRules: cloudNoteRules,
        makeEngine: { setup in
            NaiveEngine(schema: setup.schema, pageSize: setup.pageSize)
        },
        observe: { box, engine in
            NaiveObservation(syncData: box.contents(as: NaiveSyncData.self) ?? NaiveSyncData(),
                             engine: engine as? NaiveEngine)
        }
    )
}

extension NaiveProfile {
    /// The name of `literal`, known without building it.
    public static let literalName = "naive-literal"

    /// `naive-literal`: the article's code taken literally (docs/NAIVE.md, NAIVE-D): records
    /// in the default zone, `save(_:)` under `ifServerRecordUnchanged`, no delete, no zone
    /// fetch.
    public static let literal = EngineProfile(
        name: literalName,
        seed: "004",
        system: "the article's CloudKitManager taken literally: nothing ever synchronizes",
        cataloguePage: "docs/NAIVE.md",
        catalogue: NaiveRules.literalCatalogue,
        probePoints: probePoints,
        stateNames: stateNames,
        statements: ["sync"],
        codec: NaiveRecords.codec(zone: ZoneID.defaultZoneName),
        author: NaiveEngine.author,
        cloudNoteRules: cloudNoteRules,
        makeEngine: { setup in
            NaiveEngine(schema: setup.schema, pageSize: setup.pageSize, literal: true)
        },
        observe: { box, engine in
            NaiveObservation(syncData: box.contents(as: NaiveSyncData.self) ?? NaiveSyncData(),
                             engine: engine as? NaiveEngine)
        }
    )
}

extension NaiveProfile {
    /// The rules the cloud's neutral notes show for naive (docs/CLOUDSIM.md *Notes*): an
    /// `allKeys` save that wrote keys it did not change over another writer's values is the
    /// lost update of a whole-record save (NAIVEW-1); a save re-creating a deleted record is
    /// NAIVE-4's freshly built record holding every attribute.
    @Sendable static func cloudNoteRules(_ note: CloudNote) -> [String] {
        switch note.kind {
        case "record.overwritten": return ["NAIVEW-1"]
        case "record.recreated": return ["NAIVE-4"]
        default: return []
        }
    }
}

/// What checkers read of naive: the record names on its disk, the operations in its memory.
struct NaiveObservation: BoundObservation {
    let syncData: NaiveSyncData
    let engine: NaiveEngine?

    /// The save and delete operations in memory (NAIVE-14: a kill forgets them).
    var pendingCount: Int { engine?.pendingCount ?? 0 }

    /// A zone fetch of this launch completed.
    var hasDownloadedOnce: Bool { engine?.hasCompletedZoneFetch ?? false }
}
