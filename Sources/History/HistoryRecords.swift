import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// How `history` turns models into records and back (HIS-2, HIS-3): the seed's value table.
enum HistoryRecords {
    /// HIS-3: the seed's value table: Bool as 1/0, Date as seconds since 1970, UUIDs never
    /// reach iCloud (nil is `.null`: the key is cleared).
    static var values: ValueMapping { .secondsSince1970 }

    /// history's records: the zone `CloudSyncKit`, record type = entity, field = property,
    /// with the HIS-3 values; only the parent reaches iCloud, as the record's `parent`.
    static let codec = StandardRecordCodec(
        zoneNames: [HistoryEngine.zoneName], values: values, references: .recordParent)

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
            if let field = values.cloudValue(value) {
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
