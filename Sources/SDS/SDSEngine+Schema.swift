import CloudSim
import Kernel
import LocalStore
import SyncContract

extension SDSEngine {
    /// The zone `initializeSchema()` saves its records in, and deletes again (SCHEMA-3).
    var schemaZoneName: String { zoneName + "-Schema" }

    /// SCHEMA-3: one record of every synchronized entity with every field set, in a zone of
    /// its own, so development creates every type and field; then the zone is deleted.
    func sendSchemaRequest(phase: Int, _ current: SyncRun, context: inout SDSContext) {
        let zone = ZoneID(owner: context.account ?? "", name: schemaZoneName)
        switch phase {
        case 0:
            send(.modifyZones(scope: .privateDatabase, save: [zone], delete: []), current)
        case 1:
            send(.modifyRecords(scope: .privateDatabase, zone: zone, saves: schemaRecords(in: zone),
                                deletes: [], policy: .allKeys, atomic: false), current)
        default:
            send(.modifyZones(scope: .privateDatabase, save: [], delete: [zone]), current)
        }
    }

    func handleSchemaAnswer(
        _ response: CloudResponse, _ current: SyncRun, context: inout SDSContext
    ) {
        guard case .initializeSchema(let phase) = current.step else { return }
        if case .recordsModified(let results) = response {
            let failed = results.compactMap { result -> String? in
                if case .failed(let name, let error) = result { return "\(name): \(error.code)" }
                return nil
            }
            effects.addTrace(detailed: context.isTracing,
                kind: "schema.records-saved",
                details: [TraceField("saved", .int(Int64(results.count - failed.count))),
                          TraceField("failed", .list(failed.map { .string($0) }))],
                rules: ["SCHEMA-1", "SCHEMA-3"]
            )
        }
        if phase < 2 {
            current.step = .initializeSchema(phase: phase + 1)
            return
        }
        effects.addTrace(detailed: context.isTracing, kind: "schema.initialized",
            details: [TraceField("zone", .string(schemaZoneName)),
            TraceField("deleted", .bool(true))], rules: ["SCHEMA-3"])
        completeWaiters(pendingSchemaWaiters)
        pendingSchemaWaiters = []
        current.carriesSchema = false
        current.step = .fetchDatabase
    }

    /// The `initializeSchema()` attempt failed: its callers stop waiting, with the reason,
    /// and it is not tried again behind their backs (a later call tries again).
    func failSchema(reason: String) {
        schemaRequested = false
        guard !pendingSchemaWaiters.isEmpty else { return }
        effects.addTrace(detailed: true,
            kind: "schema.failed",
            details: [TraceField("reason", .string(reason))],
            rules: []
        )
        for waiter in pendingSchemaWaiters {
            effects.append(.failed(waiter, reason: reason))
        }
        pendingSchemaWaiters = []
    }

    /// One record per synchronized entity, every synchronized field set, references to the
    /// other schema records, and the overflow asset for entities with texts or data (BIG-5).
    private func schemaRecords(in zone: ZoneID) -> [RecordSave] {
        var saves: [RecordSave] = []
        for entity in schema.entities where entity.isSynchronized {
            var record = CloudRecord(recordType: entity.name,
                recordName: "Schema-\(entity.name)", zone: zone)
            for attribute in entity.synchronizedAttributes {
                record.fields[attribute.name] = RecordMapping.cloudValue(sample(attribute.type),
                    asset: attribute.isAsset)
            }
            for relationship in entity.synchronizedToOneRelationships {
                record.fields[relationship.name] = .reference("Schema-\(relationship.destination)")
            }
            let hasLargeValues = entity.synchronizedAttributes.contains {
                $0.type == .string || $0.type == .data
            }
            if hasLargeValues {
                record.fields[Self.overflowField] = .asset(OverflowAsset().encoded)
            }
            saves.append(RecordSave(record: record, changedKeys: record.sortedKeys))
        }
        return saves
    }

    /// The asset field large values move into (SCHEMA-1, BIG-2).
    static let overflowField = "SDSOverflow"

    private func sample(_ type: AttributeType) -> AttributeValue {
        switch type {
        case .string: return .string("schema")
        case .int: return .int(1)
        case .double: return .double(1.5)
        case .bool: return .bool(true)
        case .date: return .date(millisecondsSince1970: 0)
        case .uuid: return .uuid("00000000-0000-0000-0000-000000000000")
        case .url: return .url("https://example.org")
        case .data: return .data([1])
        }
    }
}
