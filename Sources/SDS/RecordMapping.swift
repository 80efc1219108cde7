import CloudSim
import LocalStore
import SyncContract

/// How the `sds` engine turns model values into record fields and back (SCHEMA-1).
public enum RecordMapping {
    /// The field value of a to-one relationship. The parent relationship's reference is
    /// `.deleteSelf`: the record belongs to its parent in iCloud, and deleting the parent's
    /// record deletes it too (ERR-6, LIM-5: a record that still references a previous parent
    /// would be deleted with it). `CKRecord.parent` itself has the action `.none` and deletes
    /// nothing, so the cascade has to live on the field. Other relationships are `.none`.
    public static func reference(
        _ target: String, _ relationship: RelationshipDescription
    ) -> CloudValue {
        .reference(target, action: relationship.isParent ? .deleteSelf : .none)
    }

    /// The field value of an attribute value; asset properties are always assets (BIG-1).
    public static func cloudValue(_ value: AttributeValue, asset: Bool) -> CloudValue {
        let plain = FieldValues.cloudValue(value)
        guard asset else { return plain }
        switch value {
        case .data(let bytes): return .asset(bytes)
        case .string(let text): return .asset(Array(text.utf8))
        default: return plain
        }
    }

    /// The bytes `cloudValue(value, asset:)` counts towards the record's 1 MB limit
    /// (`CloudValue.recordSizeBytes`), without building the field value.
    public static func recordSizeBytes(of value: AttributeValue, asset: Bool) -> Int {
        switch value {
        // An asset property's text or data is an asset, which counts nothing (BIG-1).
        case .string(let text): return asset ? 0 : text.utf8.count
        case .data(let bytes): return asset ? 0 : bytes.count
        case .uuid(let text), .url(let text): return text.utf8.count
        case .int, .double, .bool, .date: return 8
        }
    }

    /// The attribute value a field holds, or nil when the field's type does not fit.
    public static func attributeValue(_ value: CloudValue, type: AttributeType) -> AttributeValue? {
        FieldValues.attributeValue(value, type: type, readingStringsFromAssets: true)
    }

    /// The identity value of an attribute value, for ID-1 record names.
    public static func identityValue(_ value: AttributeValue) -> IdentityValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .date(let milliseconds): return .date(millisecondsSince1970: milliseconds)
        case .uuid(let text): return .uuid(text)
        case .url(let text): return .url(text)
        case .data(let bytes): return .data(bytes)
        }
    }

    /// BIG-2: the record as other devices read it, with each value of its overflow asset
    /// `SDSOverflow` in its own field and without the asset. A field that holds a value wins
    /// over an entry of the same key in the asset: an upload that moves a value into the asset
    /// clears its field in the same save, so a field present next to an entry was saved later.
    public static func expandingOverflow(_ record: CloudRecord) -> CloudRecord {
        guard record.fields[SDSEngine.overflowField] != nil else { return record }
        var expanded = record
        expanded.fields[SDSEngine.overflowField] = nil
        guard let asset = OverflowAsset.decode(record.fields[SDSEngine.overflowField]) else {
            return expanded
        }
        for key in asset.sortedKeys where expanded.fields[key] == nil {
            expanded.fields[key] = asset.entries[key]?.cloudValue
        }
        return expanded
    }

    /// The value a record holds for an attribute, in its own field or in its overflow asset
    /// (BIG-2); nil when it has none or the value's type does not fit.
    public static func attributeValue(
        of key: String, type: AttributeType, in record: CloudRecord
    ) -> AttributeValue? {
        if let field = record.fields[key] { return attributeValue(field, type: type) }
        guard let asset = OverflowAsset.decode(record.fields[SDSEngine.overflowField]),
              let entry = asset.entries[key] else { return nil }
        return attributeValue(entry.cloudValue, type: type)
    }

    /// The synchronized property names of an entity: attributes, then to-one relationships.
    public static func synchronizedKeys(of entity: EntityDescription) -> [String] {
        entity.synchronizedAttributes.map(\.name)
            + entity.synchronizedToOneRelationships.map(\.name)
    }
}
