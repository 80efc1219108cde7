import Kernel

/// A value of a record field, in the types CloudKit stores ([CKRecord] field value types).
///
/// Booleans travel as integers (the schema type INT64), dates at millisecond precision.
public enum CloudValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    /// Whole milliseconds since 1970-01-01T00:00:00Z.
    case date(millisecondsSince1970: Int64)
    case bytes([UInt8])
    /// A `CKRecord.Reference` to another record of the same zone, by record name, with its
    /// action: `.none` (the default) leaves the dangling name when the target is deleted;
    /// `.deleteSelf` makes the target own the referencing record (docs/CLOUDSIM.md,
    /// *References and cascades*).
    case reference(String, action: ReferenceAction = .none)
    /// A CKAsset: stored apart from the record and not counted in its 1 MB.
    case asset([UInt8])
    case list([CloudValue])

    /// The bytes this value counts towards the record's 1 MB limit (assets count nothing).
    public var recordSizeBytes: Int {
        switch self {
        case .string(let text): return text.utf8.count
        case .int, .double, .date: return 8
        case .bytes(let bytes): return bytes.count
        case .reference(let name, _): return name.utf8.count + 16
        case .asset: return 0
        case .list(let values): return values.reduce(0) { $0 + $1.recordSizeBytes }
        }
    }

    /// The schema type name, as CloudKit's schema language spells it (docs/CLOUDSIM.md *Schema*).
    public var schemaTypeName: String {
        switch self {
        case .string: return "STRING"
        case .int: return "INT64"
        case .double: return "DOUBLE"
        case .date: return "TIMESTAMP"
        case .bytes: return "BYTES"
        case .reference: return "REFERENCE"
        case .asset: return "ASSET"
        case .list(let values): return "LIST<\(values.first?.schemaTypeName ?? "STRING")>"
        }
    }
}

/// `CKRecord.ReferenceAction`: what deleting a reference's target does to the record that holds
/// the reference (raw values as CloudKit's: none 0, deleteSelf 1).
public enum ReferenceAction: Int, Hashable, Sendable {
    /// No cascade: the reference keeps the deleted target's name.
    case none = 0
    /// Deleting the target deletes the record holding the reference, cascading further.
    case deleteSelf = 1
}

extension CloudValue {
    /// The record names this value points at with `.deleteSelf` (itself or inside a list), in
    /// order: the targets that own the record holding it.
    public var owningTargets: [String] {
        switch self {
        case .reference(let name, .deleteSelf): return [name]
        case .list(let values): return values.flatMap(\.owningTargets)
        default: return []
        }
    }

    /// Whether `owningTargets` is not empty, without building it.
    var hasOwningTarget: Bool {
        switch self {
        case .reference(_, .deleteSelf): return true
        case .list(let values): return values.contains(where: \.hasOwningTarget)
        default: return false
        }
    }
}
