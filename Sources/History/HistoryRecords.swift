import CloudSim
import LocalStore
import SyncContract

/// How `history` turns models into records and back (HIS-2, HIS-3): the seed's value table.
enum HistoryRecords {
    /// HIS-3: a value as the record holds it; nil is `.null` (the key is cleared): UUIDs.
    static func cloudValue(_ value: AttributeValue) -> CloudValue? {
        switch value {
        case .string(let text): return .string(text)
        case .url(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .date(let milliseconds): return .double(Double(milliseconds) / 1000)
        case .data(let bytes): return .bytes(bytes)
        case .uuid: return nil
        }
    }

    /// A field's value back as an attribute of the type, nil when it does not fit.
    static func attributeValue(_ value: CloudValue, type: AttributeType) -> AttributeValue? {
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.url, .string(let text)): return .url(text)
        case (.int, .int(let number)): return .int(number)
        case (.double, .double(let number)): return .double(number)
        case (.double, .int(let number)): return .double(Double(number))
        case (.bool, .int(let number)): return .bool(number != 0)
        case (.date,
            .double(let seconds)):
            return .date(millisecondsSince1970: Int64((seconds * 1000).rounded()))
        case (.data, .bytes(let bytes)), (.data, .asset(let bytes)): return .data(bytes)
        default: return nil
        }
    }

    /// HIS-2: the properties a record carries: every synchronized attribute whose name does
    /// not start with `_` (the four service fields are not attributes of the scenario).
    static func uploadedAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        entity.synchronizedAttributes.filter { !$0.name.hasPrefix("_") }
    }

    /// The parent relationship of an entity (the one encoded as `parentRecordID`).
    static func parentRelationship(of entity: EntityDescription) -> RelationshipDescription? {
        entity.relationships.first { $0.isParent && !$0.isToMany && entity.sync.includes($0.name) }
    }

    /// HIS-3: the fields of `keys` (every uploaded attribute for nil); keys whose value is
    /// `.null` are left out, so a save clears them. Returns the keys it had to clear because
    /// their type never reaches iCloud (HISW-9).
    static func fields(
        of model: Model, entity: EntityDescription, keys: [String]?
    ) -> (fields: SortedMap<String, CloudValue>, written: [String], dropped: [String]) {
        var fields: SortedMap<String, CloudValue> = [:]
        var written: [String] = []
        var dropped: [String] = []
        for attribute in uploadedAttributes(of: entity)
            where keys?.contains(attribute.name) ?? true {
            written.append(attribute.name)
            guard let value = model.values[attribute.name] else { continue }
            if let field = cloudValue(value) {
                fields[attribute.name] = field
            } else {
                dropped.append(attribute.name)
            }
        }
        for relationship in entity.relationships where entity.sync.includes(relationship.name)
            && !(relationship.isParent && !relationship.isToMany) {
            let set = model.toOne[relationship.name] != nil
                || !(model.toMany[relationship.name] ?? []).isEmpty
            if set && (keys?.contains(relationship.name) ?? true) {
                dropped.append(relationship.name)
            }
        }
        return (fields, written, dropped)
    }
}

/// history's records: the zone `CloudSyncKit`, record type = entity, field = property, with
/// the HIS-3 encoding (Bool as 1/0, Date as seconds since 1970).
public struct HistoryCodec: RecordCodec {
    public init() {}

    public var zoneNames: [String] { [HistoryEngine.zoneName] }

    public func recordType(ofEntity entity: String) -> String { entity }

    public func entity(ofRecordType type: String) -> String? { type }

    public func value(of attribute: String, type: AttributeType,
        in record: CloudRecord) -> AttributeValue? {
        record.fields[attribute].flatMap { HistoryRecords.attributeValue($0, type: type) }
    }

    /// Only the parent reaches iCloud, as the record's `parent` (HIS-3).
    public func reference(of relationship: String, in record: CloudRecord) -> String? {
        record.parent
    }
}
