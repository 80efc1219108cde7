import CloudSim
import LocalStore
import SyncContract

/// The timers sds sets; at most one of each at a time.
extension EngineTimer {
    /// SYNC-1: the short wait after a save before synchronizing.
    public static let debounce = EngineTimer("debounce")
    /// Waiting for a retry-after or a back-off before trying again.
    public static let retry = EngineTimer("retry")
    /// ERR-4: the 30-minute pause of uploads while iCloud storage is full.
    public static let quotaPause = EngineTimer("quotaPause")
    /// SCHEMA-4 / ERR-7: records set aside for an hour.
    public static let rejectedRetry = EngineTimer("rejectedRetry")
}

/// The context sds handles events in: its sync data is `SDSSyncData`.
public typealias SDSContext = EngineContext<SDSSyncData>

/// The `sds` engine as the registry knows it.
public enum SDSProfile {
    public static let probePoints = [
        ProbePoint("sync.start", "a synchronization begins (before the account check)"),
        ProbePoint("download.start", "the download begins (SYNC-2: before any upload)"),
        ProbePoint("download.page.fetched",
            "a page of the zone's changes arrived; nothing applied yet"),
        ProbePoint("download.page.resolved", "(sds) the page was matched against the store: which "
            + "records are new; nothing stored yet (LIM-2 lives between this and the store)"),
        ProbePoint("download.page.stored",
            "the page's records are saved in the store; its token not yet"),
        ProbePoint("download.page.saved", "the page's change token is saved too (DL-1)"),
        ProbePoint("download.done", "every page was downloaded"),
        ProbePoint("upload.start", "the upload begins"),
        ProbePoint("upload.sent", "an upload request left the device"),
        ProbePoint("upload.done",
            "an upload's answer was handled (also once when nothing was to upload)"),
        ProbePoint("sync.done", "the synchronization ended (also after an error)"),
    ]

    /// The states of docs/ENGINE.md ("States").
    public static let stateNames = EngineState.commonNames + [
        "stopped", "error(userDeletedZone)", "error(incompleteUpload)", "paused(quotaExceeded)",
    ]

    public static let profile: EngineProfile = {
        var profile = EngineProfile(
            name: SDSEngine.name,
            seed: "000",
            system: "FiveSheepCo/SwiftDataSync, the primary engine",
            cataloguePage: "docs/RULES.md",
            catalogue: SDSRules.catalogue,
            probePoints: probePoints,
            stateNames: stateNames,
            statements: EngineProfile.engineStatements,
            mechanisms: SDSMechanisms.names,
            canaryMechanism: "forgetsPendingChangesOnLaunch",
            codec: SDSCodec(),
            author: SDSEngine.author,
            cloudNoteRules: cloudNoteRules,
            makeEngine: { setup in
                let engine = SDSEngine(
                    schema: setup.schema,
                    recordingSchema: setup.recordingSchema,
                    fullSchema: setup.fullSchema,
                    isExtension: setup.isExtension,
                    zoneName: SDSCodec.zoneName,
                    pageSize: setup.pageSize,
                    mechanisms: SDSMechanisms(switches: setup.mechanisms)
                )
                return engine
            },
            observe: { box, engine in
                SDSObservation(syncData: box.contents(as: SDSSyncData.self) ?? SDSSyncData(),
                               engine: engine as? SDSEngine)
            }
        )
        // DEL-2: batch-deleted models come back at the next launch's first synchronization.
        profile.batchDeletesReturnAtLaunch = true
        profile.lendingEngine = { $0 as? SDSEngine }
        return profile
    }()
}

extension SDSProfile {
    /// The rules the cloud's neutral notes show for sds: a `changedKeys` save re-creating a
    /// deleted record brings back only the edited keys (LIM-1, docs/CLOUDSIM.md *Notes*).
    @Sendable static func cloudNoteRules(_ note: CloudNote) -> [String] {
        // Most notes are of other kinds, told apart by their length first: a string equals
        // this ASCII kind (no `;`, `` ` `` or `K`, the only ASCII a non-ASCII character is
        // equivalent to) only with as many bytes, and comparing the bytes is a call.
        let kind = "record.recreated"
        return note.kind.utf8.count == kind.utf8.count && note.kind == kind
            && note.value(of: "policy") == "changedKeys" ? ["LIM-1"] : []
    }
}

/// sds's records: one zone, record type = entity, field = property, large values possibly in
/// the `SDSOverflow` asset (BIG-2).
public struct SDSCodec: RecordCodec {
    public static let zoneName = "SwiftDataSync"

    public init() {}

    public var zoneNames: [String] { [Self.zoneName] }

    public func recordType(ofEntity entity: String) -> String { entity }

    public func entity(ofRecordType type: String) -> String? { type }

    public func value(
        of attribute: String, type: AttributeType, in record: CloudRecord
    ) -> AttributeValue? {
        RecordMapping.attributeValue(of: attribute, type: type, in: record)
    }

    public func reference(of relationship: String, in record: CloudRecord) -> String? {
        if case .reference(let target, _)? = record.fields[relationship] { return target }
        return nil
    }
}

/// What checkers read of sds: its sync data, and whether the running engine checked the
/// account since launch (HDO-2).
///
/// The engine's answer is read when the observation is made, not kept as the engine: one
/// reference less to retain and release at every copy the checkers make. The device drops
/// its observation whenever it hands the engine an event (`Device.observation`), so none
/// outlives a change of the engine's memory.
struct SDSObservation: EngineObservation {
    let syncData: SDSSyncData
    /// The running engine had checked the account since launch; false when none ran.
    let engineCheckedAccount: Bool

    init(syncData: SDSSyncData, engine: SDSEngine?) {
        self.syncData = syncData
        engineCheckedAccount = engine?.hasCheckedAccount ?? false
    }

    func recordName(of model: ModelID) -> String? { syncData.recordName(of: model) }

    func model(forRecord name: String) -> ModelID? { syncData.model(forRecord: name) }

    func model(forRecord name: HashedRecordName) -> ModelID? { syncData.model(forRecord: name) }

    func isModel(_ model: ModelID, boundTo name: HashedRecordName) -> Bool {
        syncData.records.isBound(model, to: name.name)
    }

    var pendingCount: Int { syncData.pendingCount }

    var hasDownloadedOnce: Bool { engineCheckedAccount && syncData.hasDownloadedOnce }

    var pendingModels: [ModelID] { syncData.pending.keys.sorted() }

    var pendingDeletions: [String] { syncData.pendingDeletions.names }

    var rejectedRecords: [(record: String, error: String)] {
        syncData.rejected.keys.sorted().compactMap { name in
            syncData.rejected[name].map { (name, "\($0.error.code)") }
        }
    }

    var keptAsideRecords: [String] { syncData.aside.names }
}
