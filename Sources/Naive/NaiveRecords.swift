import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// How `naive` turns models into records and back (NAIVE-1, NAIVE-8): the article's
/// `toCKRecord()` and `init?(record:)`, generalized to every entity and attribute.
enum NaiveRecords {
    /// naive's records: the zone `Notes` (the default zone for the literal code), record
    /// type = entity, field = attribute, no relationships (NAIVE-1).
    static func codec(zone: String = NaiveEngine.zoneName) -> StandardRecordCodec {
        StandardRecordCodec(zoneNames: [zone], values: values)
    }

    /// A field's value, nil when its type does not fit (the article's
    /// `record["title"] as? String` failing); asset properties are plain data (NAIVE-13).
    static var values: ValueMapping { .fieldValues(uppercasingUUIDs: true) }

    /// The UUID at the end of a record name (`Note_<UUID>`: the article splits at `_` and
    /// takes the last part), nil when it is not one.
    static func uuid(inRecordName name: String) -> String? {
        guard let last = name.split(separator: "_").last else { return nil }
        let text = String(last)
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
        let hex = Set("0123456789abcdefABCDEF")
        guard groups.allSatisfy({ $0.allSatisfy { hex.contains($0) } }) else { return nil }
        return text.uppercased()
    }

    /// The fields of a freshly built record: every synchronized attribute that has a value.
    static func fields(
        of model: Model, entity: EntityDescription
    ) -> SortedMap<String, CloudValue> {
        var fields: SortedMap<String, CloudValue> = [:]
        for attribute in entity.synchronizedAttributes {
            if let value = model.values[attribute.name] {
                fields[attribute.name] = FieldValues.cloudValue(value)
            }
        }
        return fields
    }

    /// The record as `init?(record:)` reads it: every synchronized attribute's value (nil to
    /// clear an optional one), or the first required attribute it lacks (neither optional nor
    /// defaulted; a defaulted one takes its default).
    static func values(
        of record: CloudRecord, entity: EntityDescription
    ) -> (values: [String: AttributeValue?], missing: String?) {
        var values: [String: AttributeValue?] = [:]
        for attribute in entity.synchronizedAttributes {
            if let field = record.fields[attribute.name],
               let value = Self.values.attributeValue(field, type: attribute.type) {
                values[attribute.name] = .some(value)
            } else if attribute.isOptional {
                values[attribute.name] = .some(nil)
            } else if let fallback = attribute.defaultValue {
                values[attribute.name] = .some(fallback)
            } else {
                return (values, attribute.name)
            }
        }
        // A required attribute this app version does not synchronize is never read either:
        // its model could not be saved, so the record is skipped like one that lacks it.
        for attribute in entity.attributes where !attribute.isOptional
            && attribute.defaultValue == nil && !entity.sync.includes(attribute.name)
        {
            return (values, attribute.name)
        }
        return (values, nil)
    }
}
