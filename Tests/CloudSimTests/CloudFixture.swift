import CloudSim
import Kernel
import Testing

/// A cloud with two accounts and a few devices, plus shorthands for the requests tests send.
///
/// Devices: `phone`, `laptop`, `tablet` on alice; `desktop` on bob. The app zone of alice is
/// created by `init` unless `createZone` is false.
final class CloudFixture {
    let cloud: CloudService
    var now = SimTime.seconds(1)

    let phone = CloudClient(device: "phone", account: "alice")
    let laptop = CloudClient(device: "laptop", account: "alice")
    let tablet = CloudClient(device: "tablet", account: "alice")
    let desktop = CloudClient(device: "desktop", account: "bob")

    var zone: ZoneID { cloud.appZone(of: "alice") }
    var bobZone: ZoneID { cloud.appZone(of: "bob") }

    init(
        environment: CloudEnvironment = .development,
        maxItemsPerRequest: Int = 400,
        maxRecordSizeBytes: Int = 1_048_576,
        createZone: Bool = true,
        databaseChangesPageSize: Int = 100
    ) {
        var configuration = CloudConfiguration(
            accounts: ["alice", "bob"],
            appZoneName: "App",
            environment: environment,
            maxItemsPerRequest: maxItemsPerRequest,
            maxRecordSizeBytes: maxRecordSizeBytes)
        configuration.databaseChangesPageSize = databaseChangesPageSize
        cloud = CloudService(configuration: configuration)
        if createZone { createAppZone(for: phone) }
    }

    /// Sends a request and moves the clock on by one millisecond.
    @discardableResult
    func send(_ request: CloudRequest, from client: CloudClient) -> CloudOutcome {
        let outcome = cloud.handle(request, from: client, now: now)
        now += .milliseconds(1)
        return outcome
    }

    @discardableResult
    func createAppZone(for client: CloudClient) -> CloudOutcome {
        let zone = cloud.appZone(of: client.account ?? "")
        return send(.modifyZones(scope: .privateDatabase, save: [zone], delete: []), from: client)
    }

    @discardableResult
    func modify(
        saves: [RecordSave] = [],
        deletes: [String] = [],
        policy: SavePolicy = .ifServerRecordUnchanged,
        atomic: Bool = false,
        in zone: ZoneID? = nil,
        from client: CloudClient? = nil
    ) -> CloudOutcome {
        let client = client ?? phone
        let zone = zone ?? cloud.appZone(of: client.account ?? "alice")
        return send(
            .modifyRecords(
                scope: .privateDatabase, zone: zone, saves: saves, deletes: deletes,
                policy: policy, atomic: atomic),
            from: client)
    }

    /// Saves new records (no change tag) and returns the per-item results.
    @discardableResult
    func insert(
        _ records: CloudRecord..., policy: SavePolicy = .ifServerRecordUnchanged,
        from client: CloudClient? = nil
    )
        -> [ItemResult]
    {
        modify(saves: records.map(newSave), policy: policy, from: client).response.items
    }

    /// Fetches one page of alice's app zone (or `zone`).
    func fetchZone(
        after token: ZoneChangeToken?, limit: Int = 0, zone: ZoneID? = nil,
        from client: CloudClient? = nil
    ) -> CloudResponse {
        let zone = zone ?? self.zone
        return send(
            .fetchZoneChanges(
                scope: .privateDatabase, zone: zone, token: token, resultsLimit: limit),
            from: client ?? phone
        ).response
    }

    func fetchDatabase(
        after token: DatabaseChangeToken?, from client: CloudClient? = nil
    ) -> CloudResponse {
        send(.fetchDatabaseChanges(scope: .privateDatabase, token: token), from: client ?? phone)
            .response
    }

    func serverRecord(_ name: String) -> CloudRecord {
        guard let record = cloud.record(named: name, in: zone) else {
            Issue.record("no record \(name) in the cloud")
            return CloudRecord(recordType: "Note", recordName: name, zone: zone)
        }
        return record
    }

    /// A note record of alice's app zone.
    func note(
        _ name: String, _ fields: SortedMap<String, CloudValue> = [:], parent: String? = nil,
        type: String = "Note"
    )
        -> CloudRecord
    {
        CloudRecord(recordType: type, recordName: name, zone: zone, fields: fields, parent: parent)
    }

    /// An edit of the server's current copy: `changes` applied (nil removes), those keys changed.
    func edit(
        _ name: String, _ changes: [String: CloudValue?], basedOn base: CloudRecord? = nil
    ) -> RecordSave {
        var record = base ?? serverRecord(name)
        for (key, value) in changes { record.fields[key] = value }
        return RecordSave(record: record, changedKeys: changes.keys.sorted())
    }
}

/// A save of a record the client created: every key it holds is changed.
func newSave(_ record: CloudRecord) -> RecordSave {
    RecordSave(record: record, changedKeys: record.sortedKeys)
}

extension CloudResponse {
    /// The operation-level error, if the response is one.
    var failure: CloudError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Per-item results of a modify or fetch-records answer (empty otherwise).
    var items: [ItemResult] {
        switch self {
        case .recordsModified(let items), .recordsFetched(let items): return items
        default: return []
        }
    }

    var page:
        (
            records: [CloudRecord], deletions: [RecordDeletion], token: ZoneChangeToken,
            moreComing: Bool
        )?
    {
        if case .zoneChanges(let records, let deletions, let token, let moreComing) = self {
            return (records, deletions, token, moreComing)
        }
        return nil
    }

    var databaseChanges: (changed: [ZoneID], deleted: [ZoneDeletion], token: DatabaseChangeToken)? {
        if case .databaseChanges(let changed, let deleted, let token, _) = self {
            return (changed, deleted, token)
        }
        return nil
    }
}

extension ItemResult {
    var savedRecord: CloudRecord? {
        if case .saved(let record) = self { return record }
        return nil
    }

    var error: CloudError? {
        if case .failed(_, let error) = self { return error }
        return nil
    }

    var code: CloudErrorCode? { error?.code }

    var isDeleted: Bool {
        if case .deleted = self { return true }
        return false
    }
}

extension CloudOutcome {
    var noteKinds: [String] { notes.map(\.kind) }

    func notes(_ kind: String) -> [CloudNote] { notes.filter { $0.kind == kind } }
}

extension CloudNote {
    func detail(_ key: String) -> String? { details.first { $0.key == key }?.value }
}

/// Names of the records of a page or list, in order.
func names(_ records: [CloudRecord]) -> [String] { records.map(\.recordName) }
func names(_ deletions: [RecordDeletion]) -> [String] { deletions.map(\.recordName) }
