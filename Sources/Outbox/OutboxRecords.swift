import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// How the reference adapter turns models into records and back (OBX-1): record type =
/// entity, one field per synchronized attribute, to-one relationships as references, the
/// `parent` relationship as the record's parent; `asset` properties as CKAssets (OBX-34).
enum OutboxRecords {
    static func cloudValue(_ value: AttributeValue, isAsset: Bool) -> CloudValue {
        if isAsset, case .data(let bytes) = value { return .asset(bytes) }
        return FieldValues.cloudValue(value)
    }

    /// A UUID keeps the field's text as is (the adapter stores `uuidString` and reads it back).
    static func attributeValue(_ value: CloudValue, type: AttributeType) -> AttributeValue? {
        OutboxCodec.values.attributeValue(value, type: type)
    }

    /// The synchronized fields of a model: every attribute with a value, every to-one
    /// relationship (but the parent) whose target has a record name.
    static func fields(
        of model: Model, entity: EntityDescription, recordName: (ModelID) -> String?
    ) -> (fields: SortedMap<String, CloudValue>, parent: String?) {
        var fields: SortedMap<String, CloudValue> = [:]
        for attribute in entity.synchronizedAttributes {
            if let value = model.values[attribute.name] {
                fields[attribute.name] = cloudValue(value, isAsset: attribute.isAsset)
            }
        }
        var parent: String?
        for relationship in entity.synchronizedToOneRelationships {
            guard let target = model.toOne[relationship.name],
                  let name = recordName(target) else { continue }
            if relationship.isParent { parent = name }
            fields[relationship.name] = .reference(name)
        }
        return (fields, parent)
    }

    /// The keys a record of the entity may hold (every synchronized property).
    static func keys(of entity: EntityDescription) -> [String] {
        entity.synchronizedAttributes.map(\.name)
            + entity.synchronizedToOneRelationships.map(\.name)
    }
}
