import CloudSim
import LocalStore
import SyncContract

/// The record layout the bundled engines share, as configuration: record type = entity and
/// field = property, both under an optional prefix; values by a `ValueMapping`; an optional
/// asset field for a value too large for its own; relationships in one of a few encodings.
public struct StandardRecordCodec: RecordCodec, Hashable {
    /// How a record refers to a relationship's target.
    public enum References: Hashable, Sendable {
        /// Relationships do not reach iCloud.
        case none
        /// Only the parent does, as the record's `parent`.
        case recordParent
        /// A to-one relationship as a reference field.
        case referenceFields
        /// A to-one relationship as the target's record name in a string field.
        case nameFields
    }

    public let zoneNames: [String]
    /// Before every record type and field name (empty: none).
    public let prefix: String
    /// The asset field of an attribute is its field name followed by this; nil: no assets.
    public let assetSuffix: String?
    public let values: ValueMapping
    public let references: References

    public init(
        zoneNames: [String], prefix: String = "", assetSuffix: String? = nil,
        values: ValueMapping = .fieldValues(uppercasingUUIDs: true),
        references: References = .none
    ) {
        self.zoneNames = zoneNames
        self.prefix = prefix
        self.assetSuffix = assetSuffix
        self.values = values
        self.references = references
    }

    @inlinable
    public func recordType(ofEntity entity: String) -> String {
        prefix.isEmpty ? entity : prefix + entity
    }

    @inlinable
    public func entity(ofRecordType type: String) -> String? {
        guard !prefix.isEmpty else { return type }
        guard type.hasPrefix(prefix) else { return nil }
        return String(type.dropFirst(prefix.count))
    }

    /// The field of a property.
    @inlinable
    public func field(_ property: String) -> String {
        prefix.isEmpty ? property : prefix + property
    }

    /// The asset field of an attribute, if the layout has them.
    @inlinable
    public func assetField(_ attribute: String) -> String? {
        assetSuffix.map { field(attribute) + $0 }
    }

    /// The attribute's field, else its asset field (Data as is, a String as UTF-8).
    @inlinable
    public func value(
        of attribute: String, type: AttributeType, in record: CloudRecord
    ) -> AttributeValue? {
        let name = field(attribute)
        if let field = record.fields[name] { return values.attributeValue(field, type: type) }
        guard let assetSuffix, case .asset(let bytes)? = record.fields[name + assetSuffix] else {
            return nil
        }
        switch type {
        case .data: return .data(bytes)
        case .string: return .string(String(decoding: bytes, as: UTF8.self))
        default: return nil
        }
    }

    @inlinable
    public func reference(of relationship: String, in record: CloudRecord) -> String? {
        switch references {
        case .none:
            return nil
        case .recordParent:
            return record.parent
        case .referenceFields:
            guard case .reference(let target, _)? = record.fields[field(relationship)] else {
                return nil
            }
            return target
        case .nameFields:
            if case .string(let name)? = record.fields[field(relationship)] { return name }
            return nil
        }
    }
}
