import Foundation

/// A reference to another record (Apple's `CKRecord.Reference`, `CKReference` in
/// Objective-C). A top-level class for the same reason as `CKRecordID`: an app archives it.
public final class CKReference: NSObject, NSSecureCoding, CKRecordValueProtocol,
    @unchecked Sendable {
    // `@unchecked`: immutable after init.
    public static var supportsSecureCoding: Bool { true }

    public enum Action: UInt, Sendable {
        case none = 0
        case deleteSelf = 1
    }

    public let recordID: CKRecord.ID
    public let action: Action

    public init(recordID: CKRecord.ID, action: Action) {
        self.recordID = recordID
        self.action = action
    }

    public convenience init(record: CKRecord, action: Action) {
        self.init(recordID: record.recordID, action: action)
    }

    public required init?(coder: NSCoder) {
        guard let recordID = coder.decodeObject(of: CKRecord.ID.self, forKey: "recordID"),
              let action = Action(rawValue: UInt(clamping: coder.decodeInt64(forKey: "action")))
        else { return nil }
        self.recordID = recordID
        self.action = action
    }

    public func encode(with coder: NSCoder) {
        coder.encode(recordID, forKey: "recordID")
        coder.encode(Int64(action.rawValue), forKey: "action")
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKReference else { return false }
        return other.recordID == recordID && other.action == action
    }

    public override var hash: Int { recordID.hash }
}
