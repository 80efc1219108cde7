import CloudSim
import LocalStore

/// How the reference adapter turns models into records and back (OBX-1): record type =
/// entity, one field per synchronized attribute, to-one relationships as references, the
/// `parent` relationship as the record's parent; `asset` properties as CKAssets (OBX-34).
enum OutboxRecords {
    static func cloudValue(_ value: AttributeValue, isAsset: Bool) -> CloudValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .date(let milliseconds): return .date(millisecondsSince1970: milliseconds)
        case .uuid(let text): return .string(text)
        case .url(let text): return .string(text)
        case .data(let bytes): return isAsset ? .asset(bytes) : .bytes(bytes)
        }
    }

    static func attributeValue(_ value: CloudValue, type: AttributeType) -> AttributeValue? {
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.int, .int(let number)): return .int(number)
        case (.double, .double(let number)): return .double(number)
        case (.double, .int(let number)): return .double(Double(number))
        case (.bool, .int(let number)): return .bool(number != 0)
        case (.date, .date(let milliseconds)): return .date(millisecondsSince1970: milliseconds)
        case (.uuid, .string(let text)): return .uuid(text)
        case (.url, .string(let text)): return .url(text)
        case (.data, .bytes(let bytes)), (.data, .asset(let bytes)): return .data(bytes)
        default: return nil
        }
    }

    /// The synchronized fields of a model: every attribute with a value, every to-one
    /// relationship (but the parent) whose target has a record name.
    static func fields(
        of model: Model, entity: EntityDescription, recordName: (ModelID) -> String?
    ) -> (fields: [String: CloudValue], parent: String?) {
        var fields: [String: CloudValue] = [:]
        for attribute in entity.synchronizedAttributes {
            if let value = model.values[attribute.name] {
                fields[attribute.name] = cloudValue(value, isAsset: attribute.isAsset)
            }
        }
        var parent: String?
        for relationship in entity.synchronizedToOneRelationships {
            guard let target = model.toOne[relationship.name], let name = recordName(target) else { continue }
            if relationship.isParent { parent = name }
            fields[relationship.name] = .reference(name)
        }
        return (fields, parent)
    }

    /// The keys a record of the entity may hold (every synchronized property).
    static func keys(of entity: EntityDescription) -> [String] {
        entity.synchronizedAttributes.map(\.name) + entity.synchronizedToOneRelationships.map(\.name)
    }
}
