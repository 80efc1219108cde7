import CloudKit
import Foundation
import Testing

/// `CKRecordZone.ID`, `CKRecord.ID` and `CKRecord.Reference` are `NSSecureCoding`, as on Apple
/// platforms: an app keeps one with `NSKeyedArchiver` (alone, or in an array or a dictionary)
/// and reads back an equal value.
@Suite struct IDArchiveTests {
    static let zoneID = CKRecordZone.ID(zoneName: "Notes", ownerName: "_alice")
    static let recordID = CKRecord.ID(recordName: "n:1~2", zoneID: zoneID)
    static let reference = CKRecord.Reference(recordID: recordID, action: .deleteSelf)

    static func archive(_ object: Any) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    }

    @Test func eachIDComesBackAsTheRootObject() throws {
        let zone = try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecordZone.ID.self,
            from: Self.archive(Self.zoneID))
        #expect(zone == Self.zoneID)
        let defaultZone = try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecordZone.ID.self,
            from: Self.archive(CKRecordZone.ID.default))
        #expect(defaultZone == .default)
        #expect(defaultZone?.ownerName == CKCurrentUserDefaultName)
        let record = try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecord.ID.self,
            from: Self.archive(Self.recordID))
        #expect(record == Self.recordID)
        #expect(record?.zoneID.ownerName == "_alice")
        let reference = try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecord.Reference.self,
            from: Self.archive(Self.reference))
        #expect(reference == Self.reference)
        #expect(reference?.action == .deleteSelf)
    }

    @Test func idsComeBackInsideAnArray() throws {
        let ids = [Self.recordID, CKRecord.ID(recordName: "n2", zoneID: .default)]
        let data = try Self.archive(ids)
        let copy = try NSKeyedUnarchiver.unarchivedObject(
            ofClasses: [NSArray.self, CKRecord.ID.self], from: data) as? [CKRecord.ID]
        #expect(copy == ids)
    }

    @Test func idsComeBackInsideADictionary() throws {
        let kept: [String: NSObject] = [
            "zone": Self.zoneID, "record": Self.recordID, "parent": Self.reference,
        ]
        let data = try Self.archive(kept)
        let copy = try #require(try NSKeyedUnarchiver.unarchivedObject(
            ofClasses: [NSDictionary.self, NSString.self, CKRecordZone.ID.self,
                        CKRecord.ID.self, CKRecord.Reference.self],
            from: data) as? [String: Any])
        #expect(copy["zone"] as? CKRecordZone.ID == Self.zoneID)
        #expect(copy["record"] as? CKRecord.ID == Self.recordID)
        #expect(copy["parent"] as? CKRecord.Reference == Self.reference)
    }

    /// Apple's Objective-C names are the same types.
    @Test func theOlderNamesAreTheSameTypes() {
        let zone: CKRecordZoneID = Self.zoneID
        let record: CKRecordID = Self.recordID
        let reference: CKReference = Self.reference
        #expect(zone === Self.zoneID && record === Self.recordID && reference === Self.reference)
    }
}
