/// A container schema: record types and the schema type of each of their fields
/// (docs/CLOUDSIM.md *Schema*, SCHEMA-2).
struct Schema: Hashable {
    /// Record type → field key → schema type name (`STRING`, `LIST<INT64>`, ...).
    ///
    /// Sorted maps: a container has a few record types of a few fields, read on every save, and
    /// finding a name among them by comparing costs less than hashing it.
    private(set) var recordTypes: SortedMap<String, SortedMap<String, String>> = [:]

    func hasType(_ recordType: String) -> Bool { recordTypes[recordType] != nil }

    func fieldType(_ key: String, of recordType: String) -> String? {
        recordTypes[recordType]?[key]
    }

    mutating func addType(_ recordType: String) {
        if recordTypes[recordType] == nil { recordTypes[recordType] = [:] }
    }

    mutating func addField(_ key: String, type: String, to recordType: String) {
        precondition(recordTypes[recordType] != nil, "field added to unknown type \(recordType)")
        precondition(recordTypes[recordType]?[key] == nil, "field \(key) already fixed")
        recordTypes[recordType]?[key] = type
    }

    /// Adds every type and field of `other` this schema lacks (deploying is additive-only:
    /// a field already here keeps its type).
    mutating func merge(_ other: Schema) {
        for recordType in other.recordTypes.keys.sorted() {
            addType(recordType)
            let fields = other.recordTypes[recordType] ?? [:]
            for key in fields.keys.sorted() where fieldType(key, of: recordType) == nil {
                addField(key, type: fields[key] ?? "", to: recordType)
            }
        }
    }

    /// The schema as sorted values, for snapshots.
    var sortedTypes: [CloudSnapshot.RecordType] {
        recordTypes.keys.sorted().map { name in
            let fields = recordTypes[name] ?? [:]
            return CloudSnapshot.RecordType(
                name: name,
                fields: fields.keys.sorted().map {
                    CloudSnapshot.Field(key: $0, type: fields[$0] ?? "")
                })
        }
    }
}

extension CloudValue {
    /// The schema type this value fixes, or nil when it cannot tell (an empty list).
    var fixedSchemaType: String? {
        if case .list(let values) = self, values.isEmpty { return nil }
        return schemaTypeName
    }

    /// Whether this value may be stored in a field of schema type `type`.
    func fits(schemaType type: String) -> Bool {
        if case .list(let values) = self, values.isEmpty { return type.hasPrefix("LIST<") }
        return schemaTypeName == type
    }

    /// False for a list mixing value types (CloudKit lists are homogeneous).
    var isHomogeneous: Bool {
        guard case .list(let values) = self, let first = values.first else { return true }
        return values.allSatisfy { $0.schemaTypeName == first.schemaTypeName && $0.isHomogeneous }
    }
}
