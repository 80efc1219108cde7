import CloudSim
import Foundation
import SortedMaps

/// A record (Apple's `CKRecord`): a class with a type, an ID, fields read and written by
/// subscript (also through `encryptedValues`), the keys changed since it was made or fetched,
/// and system fields (change tag, dates, parent, share) that round-trip through
/// `encodeSystemFields(with:)` and `init?(coder:)`.
///
/// Plain and encrypted fields share one namespace here: `encryptedValues[key]` and
/// `self[key]` read and write the same field; CloudKit encrypts the first on the server only.
open class CKRecord: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // `@unchecked`: a record is mutable and, as on Apple platforms, not thread-safe; the
    // simulation runs every task on one thread.
    public static var supportsSecureCoding: Bool { true }

    public let recordType: RecordType
    public let recordID: ID
    /// The fields, in key order (the order no hash can change).
    var fields: SortedMap<String, CloudValue>
    var changed: [String] = []
    var encryptedKeys: Set<String> = []
    /// The server's version of the record this copy was made from (nil for a new record).
    public internal(set) var recordChangeTag: String?
    public internal(set) var creationDate: Date?
    public internal(set) var modificationDate: Date?
    public internal(set) var lastModifiedUserRecordID: ID?
    public internal(set) var creatorUserRecordID: ID?
    /// The parent record, for sharing (Apple's `parent`).
    public var parent: Reference?
    /// The share this record belongs to, once shared.
    public internal(set) var share: Reference?

    public init(recordType: RecordType, recordID: ID = ID()) {
        self.recordType = recordType
        self.recordID = recordID
        fields = [:]
    }

    public convenience init(recordType: RecordType, zoneID: CKRecordZone.ID) {
        self.init(recordType: recordType, recordID: ID(zoneID: zoneID))
    }

    /// A record from an archive of its system fields (`encodeSystemFields(with:)`), with no
    /// fields, or of the whole record (`encode(with:)`); nil when the archive is not one.
    public required init?(coder: NSCoder) {
        // Foundation's decoder fails the whole archive on an absent object key.
        guard coder.containsValue(forKey: Keys.systemFields),
              let packed = coder.decodeObject(of: NSString.self, forKey: Keys.systemFields),
              let system = try? SystemFields(packed: packed as String) else { return nil }
        recordType = system.recordType
        recordID = system.recordID
        fields = [:]
        super.init()
        system.restore(in: self)
        if coder.containsValue(forKey: Keys.fields),
           let data = coder.decodeObject(of: NSData.self, forKey: Keys.fields),
           let decoded = FieldCoding.decode(data as Data) {
            fields = decoded.fields
            encryptedKeys = decoded.encrypted
        }
    }

    /// Writes the system fields only (Apple's way to keep a record's server version for the
    /// next save without its data).
    public func encodeSystemFields(with coder: NSCoder) {
        coder.encode(SystemFields(of: self).packed as NSString, forKey: Keys.systemFields)
    }

    /// Writes the whole record: system fields and fields.
    public func encode(with coder: NSCoder) {
        encodeSystemFields(with: coder)
        coder.encode(FieldCoding.encode(fields, encrypted: encryptedKeys) as NSData,
            forKey: Keys.fields)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = CKRecord(recordType: recordType, recordID: recordID)
        copy.copySystemFields(from: self)
        copy.fields = fields
        copy.changed = changed
        copy.encryptedKeys = encryptedKeys
        return copy
    }

    func copySystemFields(from other: CKRecord) {
        recordChangeTag = other.recordChangeTag
        creationDate = other.creationDate
        modificationDate = other.modificationDate
        lastModifiedUserRecordID = other.lastModifiedUserRecordID
        creatorUserRecordID = other.creatorUserRecordID
        parent = other.parent
        share = other.share
    }

    // MARK: Fields

    public subscript(key: FieldKey) -> (any CKRecordValueProtocol)? {
        get { object(forKey: key) }
        set { setObject(newValue, forKey: key) }
    }

    /// A field read as the type the caller names (`let date: Date? = record["modified"]`).
    public subscript<Value: CKRecordValueProtocol>(key: FieldKey) -> Value? {
        get { object(forKey: key) as? Value }
        set { setObject(newValue, forKey: key) }
    }

    public func object(forKey key: FieldKey) -> (any CKRecordValueProtocol)? {
        fields[key].map { RecordValues.recordValue($0, zone: recordID.zoneID) }
    }

    public func setObject(_ value: (any CKRecordValueProtocol)?, forKey key: FieldKey) {
        if let value {
            guard let stored = RecordValues.cloudValue(value) else {
                preconditionFailure(
                    "CKRecord: a \(type(of: value)) cannot be stored in field '\(key)'")
            }
            fields[key] = stored
        } else {
            fields[key] = nil
        }
        if !changed.contains(key) { changed.append(key) }
    }

    /// The keys that have values, in key order.
    public func allKeys() -> [FieldKey] {
        Array(fields.keys) // tidy: ordered (a SortedMap: key order)
    }

    /// The keys set or cleared since the record was made, fetched or decoded.
    public func changedKeys() -> [FieldKey] { changed }

    /// The encrypted fields (the same namespace as the plain ones here).
    public var encryptedValues: any CKRecordKeyValueSetting { EncryptedValues(record: self) }

    public func setParent(_ parentRecord: CKRecord?) {
        parent = parentRecord.map { Reference(record: $0, action: .none) }
    }

    public func setParent(_ parentRecordID: ID?) {
        parent = parentRecordID.map { Reference(recordID: $0, action: .none) }
    }

    // MARK: Equality

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKRecord else { return false }
        return other === self
            || (other.recordID == recordID && other.recordType == recordType
                && other.fields == fields
                && other.recordChangeTag == recordChangeTag)
    }

    public override var hash: Int { recordID.hash }

    public override var description: String {
        "<CKRecord: recordType=\(recordType), recordID=\(recordID.recordName), "
            + "recordChangeTag=\(recordChangeTag ?? "nil"), "
            + "values=\(Array(fields.keys))>" // tidy: ordered (a SortedMap: key order)
    }

    /// An archive's keys: the system fields packed as one text, the fields as one blob.
    enum Keys {
        static let systemFields = "SystemFields"
        static let fields = "Fields"
    }
}

/// Apple's protocol for a record's fields by key (`CKRecord` and its `encryptedValues`).
public protocol CKRecordKeyValueSetting {
    subscript(key: String) -> (any CKRecordValueProtocol)? { get nonmutating set }
    func object(forKey key: String) -> (any CKRecordValueProtocol)?
    func setObject(_ object: (any CKRecordValueProtocol)?, forKey key: String)
    func allKeys() -> [String]
    func changedKeys() -> [String]
}

extension CKRecordKeyValueSetting {
    /// A field read as the type the caller names (`let p: String? = record.encryptedValues["k"]`).
    public subscript<T: CKRecordValueProtocol>(key: String) -> T? {
        get { object(forKey: key) as? T }
        nonmutating set { setObject(newValue, forKey: key) }
    }
}

extension CKRecord: CKRecordKeyValueSetting {}

/// A record's encrypted fields, written through to the record.
struct EncryptedValues: CKRecordKeyValueSetting {
    let record: CKRecord

    subscript(key: String) -> (any CKRecordValueProtocol)? {
        get { record.object(forKey: key) }
        nonmutating set { setObject(newValue, forKey: key) }
    }

    func object(forKey key: String) -> (any CKRecordValueProtocol)? { record.object(forKey: key) }

    func setObject(_ object: (any CKRecordValueProtocol)?, forKey key: String) {
        record.setObject(object, forKey: key)
        record.encryptedKeys.insert(key)
    }

    func allKeys() -> [String] { record.allKeys().filter { record.encryptedKeys.contains($0) } }

    func changedKeys()
        -> [String] { record.changedKeys().filter { record.encryptedKeys.contains($0) } }
}
