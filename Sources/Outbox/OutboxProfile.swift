import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// The `outbox` engine as the registry knows it (docs/OUTBOX.md).
public enum OutboxProfile {
    /// The contract's probe points in contract order, then outbox's own (docs/OUTBOX.md).
    public static let probePoints = [
        ProbePoint("sync.start", "willFetchChanges or willSendChanges"),
        ProbePoint("download.start", "the fetch begins (empty in a send run)"),
        ProbePoint("download.page.fetched", "a fetchedRecordZoneChanges batch arrived"),
        ProbePoint("download.page.stored", "applyFetchedChanges saved the store"),
        ProbePoint("download.page.saved",
            "the stateUpdate carrying the batch's token is persisted"),
        ProbePoint("download.done", "didFetchChanges (empty in a send run)"),
        ProbePoint("upload.start", "willSendChanges: rows staged, before the batch"),
        ProbePoint("upload.sent", "each modifyRecords leaves (the zone save first)"),
        ProbePoint("upload.done", "sentRecordZoneChanges is handled"),
        ProbePoint("sync.done", "didSendChanges / after didFetchChanges"),
        ProbePoint("outbox.committed", "(outbox) a row is written with its model"),
        ProbePoint("outbox.reconciled", "(outbox) rows are staged (OBX-7)"),
        ProbePoint("outbox.batch", "(outbox) nextRecordZoneChangeBatch returned"),
        ProbePoint("outbox.state.saved", "(outbox) a stateUpdate is persisted outside a page"),
        ProbePoint("outbox.conflict", "(outbox) resolveConflict ran"),
        ProbePoint("outbox.zone.recovered", "(outbox) a missing owned zone was restored (OBX-25)"),
        ProbePoint("outbox.share.adopted", "(outbox) a shared zone was adopted (OBX-29)"),
        ProbePoint("outbox.share.revoked", "(outbox) a shared zone was revoked (OBX-31)"),
    ]

    /// The common states, `waiting(account)` and `error(CODE)` for every CloudKit code.
    public static let stateNames = EngineState.commonNames + ["waiting(account)"]
        + CloudErrorCode.allCases.map { "error(\($0.description))" }

    public static let profile = EngineProfile(
        name: OutboxEngine.name,
        seed: "001",
        system: "markbattistella/SwiftDataSync: CKSyncEngine, a durable outbox, one zone per "
            + "collection, zone-wide shares",
        cataloguePage: "docs/OUTBOX.md",
        catalogue: OutboxRules.catalogue,
        probePoints: probePoints,
        stateNames: stateNames,
        statements: ["sync", "reset-sync-data", "share", "accept", "unshare", "remove", "leave"],
        codec: OutboxCodec(),
        author: OutboxEngine.author,
        cloudNoteRules: cloudNoteRules,
        makeEngine: { setup in
            OutboxEngine(schema: setup.schema, recordingSchema: setup.recordingSchema,
                pageSize: setup.pageSize)
        },
        observe: { box, engine in
            OutboxObservation(syncData: box.contents(as: OutboxSyncData.self) ?? OutboxSyncData())
        }
    )
}

extension OutboxProfile {
    /// The rules the cloud's neutral notes show for outbox (docs/CLOUDSIM.md *Notes*): a save
    /// without system fields that created a record another device had deleted (an insert sent
    /// again after its answer was lost, or a save whose archive OBX-16 cleared) brings the
    /// record back in full, so the deletion is lost (OBXW-2's choice). A batch CKSyncEngine
    /// built for the previous account that leaves after a switch lands in the new account's
    /// zone (the default owner): the previous account's data uploaded into the new one (OBXW-7).
    @Sendable static func cloudNoteRules(_ note: CloudNote) -> [String] {
        switch note.kind {
        case "record.created-over-tombstone":
            return ["OBXW-2"]
        case "owner.resolved" where note.value(of: "request") == "modifyRecords":
            return ["OBXW-7"]
        default:
            return []
        }
    }
}

/// outbox's records: zone `Main` and the `Collection-<root>` zones (OBX-2), record type =
/// entity, field = property (OBX-1).
public struct OutboxCodec: StandardCodecWrapper {
    /// UUIDs kept as the field's text (the adapter stores `uuidString` and reads it back).
    static var values: ValueMapping { .fieldValues(uppercasingUUIDs: false) }

    /// The layout but for the collection zones: to-one relationships as references.
    static let layout = StandardRecordCodec(
        zoneNames: [OutboxEngine.mainZoneName], values: values, references: .referenceFields)

    public init() {}

    public var standard: StandardRecordCodec { Self.layout }

    public func holdsRecords(inZoneNamed name: String) -> Bool {
        name == OutboxEngine.mainZoneName || name.hasPrefix("Collection-")
    }

    /// OBX-28: a share is the zone-wide share of the root's collection zone.
    public func sharedZoneName(ofRoot recordName: String) -> String? {
        OutboxEngine.zoneName(ofCollection: recordName)
    }
}

/// What checkers read of outbox: its disk (the outbox rows are what it still means to upload).
struct OutboxObservation: BoundObservation {
    let syncData: OutboxSyncData

    /// The outbox rows (ENGINES §0.2: "outbox: its outbox rows").
    var pendingCount: Int { syncData.rows.count }

    var hasDownloadedOnce: Bool { syncData.privateState != nil }

    var pendingModels: [ModelID] {
        syncData.orderedRows.filter { $0.mutation == .save && $0.rejection == nil }
            .compactMap { syncData.bindings.model(named: $0.recordName) }
    }

    var pendingDeletions: [String] {
        syncData.orderedRows.filter { $0.mutation == .delete }.map(\.recordName)
    }

    var rejectedRecords: [(record: String, error: String)] {
        syncData.orderedRows.compactMap { row in row.rejection.map { (row.recordName, $0) } }
    }
}
