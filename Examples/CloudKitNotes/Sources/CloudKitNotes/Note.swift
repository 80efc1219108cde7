import CloudKit
import Foundation

/// A note, as the app keeps it: its text, a counter, a flag, and the system fields of the
/// record the server last had (so the next save is not a conflict).
public struct Note: Codable, Equatable, Sendable {
    public var id: String
    public var text: String
    public var count: Int
    public var pinned: Bool
    /// The user's last edit, for conflict resolution (the later edit wins).
    public var modified: Date
    var systemFields: Data?

    public init(id: String, text: String, count: Int = 0, pinned: Bool = false, modified: Date) {
        self.id = id
        self.text = text
        self.count = count
        self.pinned = pinned
        self.modified = modified
    }

    public static func == (lhs: Note, rhs: Note) -> Bool {
        lhs.id == rhs.id && lhs.text == rhs.text && lhs.count == rhs.count && lhs.pinned == rhs.pinned
            && lhs.modified == rhs.modified
    }

    static let recordType: CKRecord.RecordType = "Note"
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    var recordID: CKRecord.ID { CKRecord.ID(recordName: id, zoneID: Self.zoneID) }

    /// The record to save: the server's last version (if known) with this note's fields.
    func record() -> CKRecord {
        let record = lastKnownRecord ?? CKRecord(recordType: Self.recordType, recordID: recordID)
        record["text"] = text
        record["count"] = count
        record["modified"] = modified
        record.encryptedValues["pinned"] = pinned
        return record
    }

    /// Takes the server's fields when its edit is the later one.
    mutating func merge(_ record: CKRecord) {
        let theirs = record["modified"] as? Date ?? .distantPast
        if theirs > modified {
            text = record["text"] as? String ?? text
            count = record["count"] as? Int ?? count
            pinned = record.encryptedValues["pinned"] as? Bool ?? pinned
            modified = theirs
        }
        lastKnownRecord = record
    }

    /// When the server made the record this note last saw (nil before it was sent).
    public var lastKnownRecordCreationDate: Date? { lastKnownRecord?.creationDate }

    var lastKnownRecord: CKRecord? {
        get {
            guard let systemFields, let coder = try? NSKeyedUnarchiver(forReadingFrom: systemFields) else { return nil }
            coder.requiresSecureCoding = true
            return CKRecord(coder: coder)
        }
        set {
            guard let newValue else { systemFields = nil; return }
            let coder = NSKeyedArchiver(requiringSecureCoding: true)
            newValue.encodeSystemFields(with: coder)
            systemFields = coder.encodedData
        }
    }
}
