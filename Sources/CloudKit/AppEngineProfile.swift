import CKSyncEngineSim
import CloudSim
import LocalStore
import SyncContract

extension EngineProfile {
    /// The contract's probe points as an app-owned engine passes them (around CKSyncEngine's
    /// events), then CKSyncEngine's own (`cksync.EVENT`, just before the delegate handles it).
    public static let appProbePoints: [ProbePoint] = [
        ProbePoint("sync.start", "CKSyncEngine begins a fetch or a send"),
        ProbePoint("download.start", "a fetch begins, before its first request"),
        ProbePoint("download.page.fetched",
            "a page of a zone arrived, before the delegate handles it"),
        ProbePoint("download.page.stored", "the delegate handled the page"),
        ProbePoint("download.page.saved", "the delegate handled the stateUpdate after the page"),
        ProbePoint("download.done", "the fetch's zones are done, before didFetchChanges"),
        ProbePoint("upload.start", "the delegate returned a batch, before its request leaves"),
        ProbePoint("upload.sent", "a modifyRecords request left the device"),
        ProbePoint("upload.done", "the delegate handled sentRecordZoneChanges"),
        ProbePoint("sync.done", "the delegate handled didFetchChanges or didSendChanges"),
    ] + SimEngine.probePoints.map {
        ProbePoint($0,
            "(CKSyncEngine) before the delegate handles \($0.dropFirst("cksync.".count))")
    }

    /// The profile of devices whose app owns its sync engine, written on Apple's CloudKit:
    /// the app makes its `CKContainer`s and `CKSyncEngine`s in its own code.
    ///
    /// - Parameters:
    ///   - containers: where each device's files live (one per world).
    ///   - launchApp: what the app does when a device launches (nil: a test builds the app
    ///     itself with `device.run`).
    public static func appOwned(
        name: String = "cloudkit",
        containers: AppContainers,
        launchApp: (@Sendable (DeviceRuntime) async -> Void)? = nil
    ) -> EngineProfile {
        EngineProfile(
            name: name,
            seed: "user",
            system: "an app's own sync engine on Apple's CloudKit API",
            cataloguePage: "docs/APP-RULES.md",
            catalogue: AppRules.catalogue,
            probePoints: appProbePoints,
            stateNames: EngineState.commonNames,
            statements: ["sync"],
            codec: AppRecordCodec(),
            author: name,
            cloudNoteRules: AppRules.cloudNoteRules,
            makeEngine: { _ in AppEngine(containers: containers, launchApp: launchApp) },
            observe: { _, _ in AppObservation() })
    }
}

/// Records as the app writes them: record type = entity, one field per attribute.
public struct AppRecordCodec: RecordCodec {
    public let zoneNames: [String]

    public init(zoneNames: [String] = [ZoneID.defaultZoneName]) {
        self.zoneNames = zoneNames
    }

    public func holdsRecords(inZoneNamed name: String) -> Bool { true }

    public func recordType(ofEntity entity: String) -> String { entity }

    public func entity(ofRecordType type: String) -> String? { type }

    public func value(of attribute: String, type: AttributeType,
        in record: CloudRecord) -> AttributeValue? {
        switch (type, record.fields[attribute]) {
        case (.string, .string(let text)?): return .string(text)
        case (.uuid, .string(let text)?): return .uuid(text)
        case (.url, .string(let text)?): return .url(text)
        case (.int, .int(let number)?): return .int(number)
        case (.double, .double(let number)?): return .double(number)
        case (.bool, .int(let number)?): return .bool(number != 0)
        case (.date, .date(let milliseconds)?): return .date(millisecondsSince1970: milliseconds)
        case (.data, .bytes(let bytes)?): return .data(bytes)
        default: return nil
        }
    }

    public func reference(of relationship: String, in record: CloudRecord) -> String? {
        if case .reference(let name, _)? = record.fields[relationship] { return name }
        return nil
    }
}

/// An app-owned engine keeps its naming to itself: the checkers see no local models.
struct AppObservation: EngineObservation {
    func recordName(of model: ModelID) -> String? { nil }
    func model(forRecord name: String) -> ModelID? { nil }
    var pendingCount: Int { 0 }
    var hasDownloadedOnce: Bool { true }
}
