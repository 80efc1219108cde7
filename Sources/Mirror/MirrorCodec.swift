import CloudSim
import EngineKit
import LocalStore
import SyncContract

/// MIR-4 / MIR-23: how SwiftData's mirroring lays models out in iCloud. Zone
/// `com.apple.coredata.cloudkit.zone`, record type `CD_<Entity>`, field `CD_<attribute>`
/// plus `CD_entityName`, a to-one relationship as the target's record name in a string
/// field, a value too large for the record in the asset field `CD_<attribute>_ckAsset`.
public enum MirrorCodec {
    public static let zoneName = "com.apple.coredata.cloudkit.zone"
    public static let prefix = "CD_"
    public static let entityNameField = "CD_entityName"
    public static let assetSuffix = "_ckAsset"

    /// How checkers and imports read the records (values as Core Data encodes them, to-one
    /// relationships as the target's record name in a string field).
    static let layout = StandardRecordCodec(
        zoneNames: [zoneName], prefix: prefix, assetSuffix: assetSuffix,
        references: .nameFields)

    /// `CD_<property>`.
    static func field(_ property: String) -> String { prefix + property }

    /// `CD_<attribute>_ckAsset`.
    static func assetField(_ attribute: String) -> String { prefix + attribute + assetSuffix }

    /// The field value of an attribute (Bool as 1/0, UUID and URL as strings, Core Data's
    /// encodings).
    static func cloudValue(_ value: AttributeValue) -> CloudValue {
        FieldValues.cloudValue(value)
    }

    /// The bytes an attribute's value takes in an asset (String as UTF-8).
    static func assetBytes(_ value: AttributeValue) -> [UInt8]? {
        switch value {
        case .string(let text): return Array(text.utf8)
        case .data(let bytes): return bytes
        default: return nil
        }
    }

    /// The record of a model (MIR-12, MIR-23): every attribute and every to-one relationship,
    /// values too large for a 700,000-byte record moved into assets, largest first; an
    /// `asset` attribute (external storage) is always an asset. Returns the fields and the
    /// attributes that went into assets.
    static func fields(
        of model: Model, entity: EntityDescription, recordName: (ModelID) -> String?
    ) -> (fields: SortedMap<String, CloudValue>, assets: [String]) {
        var fields: SortedMap<String, CloudValue> = [entityNameField: .string(entity.name)]
        var assets: [String] = []
        for attribute in entity.attributes {
            guard let value = model.values[attribute.name] else { continue }
            if attribute.isAsset, let bytes = assetBytes(value) {
                fields[assetField(attribute.name)] = .asset(bytes)
                assets.append(attribute.name)
            } else {
                fields[field(attribute.name)] = cloudValue(value)
            }
        }
        for relationship in entity.relationships where !relationship.isToMany {
            if let target = model.toOne[relationship.name], let name = recordName(target) {
                fields[field(relationship.name)] = .string(name)
            }
        }
        func size() -> Int {
            fields.keys.sorted().reduce(0) {
                $0 + $1.utf8.count + (fields[$1]?.recordSizeBytes ?? 0)
            }
        }
        // Largest value first, ties by name: the record shrinks with as few assets as possible.
        let movable = entity.attributes.filter { [.string, .data].contains($0.type) && !$0.isAsset }
            .compactMap { attribute -> (name: String, bytes: [UInt8])? in
                guard let value = model.values[attribute.name],
                      let bytes = assetBytes(value) else { return nil }
                return (attribute.name, bytes)
            }
            .sorted {
                $0.bytes.count != $1.bytes.count
                    ? $0.bytes.count > $1.bytes.count : $0.name < $1.name
            }
        for candidate in movable where size() > MirrorModelValidation.recordSizeLimit {
            fields[field(candidate.name)] = nil
            fields[assetField(candidate.name)] = .asset(candidate.bytes)
            assets.append(candidate.name)
        }
        return (fields, assets.sorted())
    }

    /// Every key an export writes for an entity: all fields and asset fields, so a value
    /// that moved between its field and its asset, or was cleared, is cleared in iCloud.
    static func allKeys(of entity: EntityDescription) -> [String] {
        var keys = [entityNameField]
        for attribute in entity.attributes {
            keys.append(field(attribute.name))
            if [.string, .data].contains(attribute.type) { keys.append(assetField(attribute.name)) }
        }
        for relationship in entity.relationships where !relationship.isToMany {
            keys.append(field(relationship.name))
        }
        return keys.sorted()
    }
}
