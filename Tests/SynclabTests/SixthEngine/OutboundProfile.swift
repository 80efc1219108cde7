import CloudSim
import LocalStore
import SyncContract

/// `outbound` as a registry knows it: its catalogue, probe points, codec and observation.
enum OutboundProfile {
    static let catalogue = RuleCatalogue(
        groupTitles: [("OUT", "what outbound does"), ("OUTW", "where outbound loses")],
        rules: [
            Rule("OUT-1", "Every save is uploaded at once as a whole record (`allKeys`) into "
                + "the default zone of the account signed in now."),
            Rule("OUT-2", "A deletion is uploaded in the same request as the saves beside it."),
            Rule("OUTW-1", "Nothing is ever downloaded: another device's changes never arrive.",
                 explains: ["convergence", "lost-change"]),
            Rule("OUTW-2", "A save goes up as a whole record without asking the cloud: a record "
                + "another device deleted comes back when this one, which never learns of the "
                + "deletion, saves its copy again.", explains: ["resurrection"]),
        ])

    static let profile = EngineProfile(
        name: "outbound",
        seed: "none",
        system: "a test's sixth engine: uploads every save, downloads nothing",
        cataloguePage: "Tests/SynclabTests/SixthEngine/OutboundProfile.swift",
        catalogue: catalogue,
        probePoints: ProbePoint.contractOrder.map {
            ProbePoint($0, "(outbound passes no probe point)")
        },
        stateNames: EngineState.commonNames,
        statements: ["sync"],
        codec: OutboundCodec(),
        author: OutboundEngine.author,
        makeEngine: { setup in OutboundEngine(schema: setup.schema) },
        observe: { box, _ in
            OutboundObservation(syncData: box.contents(as: OutboundSyncData.self)
                ?? OutboundSyncData())
        })
}

/// Records in the default zone; record type = entity, field = attribute.
struct OutboundCodec: RecordCodec {
    var zoneNames: [String] { [ZoneID.defaultZoneName] }
    func recordType(ofEntity entity: String) -> String { entity }
    func entity(ofRecordType type: String) -> String? { type }
    func value(of attribute: String, type: AttributeType, in record: CloudRecord)
        -> AttributeValue? {
        record.fields[attribute].flatMap { FieldValues.attributeValue($0, type: type) }
    }
    func reference(of relationship: String, in record: CloudRecord) -> String? { nil }
}

struct OutboundObservation: EngineObservation {
    let syncData: OutboundSyncData
    func recordName(of model: ModelID) -> String? { syncData.recordNames[model] }
    func model(forRecord name: String) -> ModelID? { syncData.models[name] }
    var pendingCount: Int { 0 }
    var hasDownloadedOnce: Bool { false }
}
