import CloudKit
import Foundation
import SyncLabTesting
import Testing

/// A record's system fields survive the app's archive (`encodeSystemFields(with:)`, then
/// `init?(coder:)`) with what the server gave it, and an archive of something else is refused.
@Suite struct RecordArchiveTests {
    static let zoneID = CKRecordZone.ID(zoneName: "Notes")

    static func archive(_ record: CKRecord, whole: Bool = false) -> Data {
        let coder = NSKeyedArchiver(requiringSecureCoding: true)
        if whole { record.encode(with: coder) } else { record.encodeSystemFields(with: coder) }
        return coder.encodedData
    }

    static func unarchive(_ data: Data) throws -> CKRecord? {
        let coder = try NSKeyedUnarchiver(forReadingFrom: data)
        coder.requiresSecureCoding = true
        return CKRecord(coder: coder)
    }

    /// Saves a note and its child to the cloud and returns them as the server answered.
    static func savedRecords() throws -> [CKRecord] {
        let world = try SimulatedWorld(seed: 5, devices: [("phone", "alice")])
        return try world.device("phone").run {
            let database = CKContainer(identifier: "iCloud.test.archive").privateCloudDatabase
            _ = try await database.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)],
                deleting: [])
            let note = CKRecord(recordType: "Note",
                recordID: CKRecord.ID(recordName: "n:1~2", zoneID: Self.zoneID))
            note["text"] = "milk"
            let child = CKRecord(recordType: "Item",
                recordID: CKRecord.ID(recordName: "i1", zoneID: Self.zoneID))
            child.parent = CKRecord.Reference(recordID: note.recordID, action: .none)
            let saved = try await database.modifyRecords(saving: [note, child], deleting: [])
            return try [note.recordID, child.recordID].map { try saved.saveResults[$0]!.get() }
        }
    }

    @Test func systemFieldsSurviveTheArchiveWithoutTheFields() throws {
        for record in try Self.savedRecords() {
            #expect(record.recordChangeTag != nil)
            let copy = try #require(try Self.unarchive(Self.archive(record)))
            #expect(copy.recordID == record.recordID)
            #expect(copy.recordType == record.recordType)
            #expect(copy.recordChangeTag == record.recordChangeTag)
            #expect(copy.creationDate == record.creationDate)
            #expect(copy.modificationDate == record.modificationDate)
            #expect(copy.parent?.recordID == record.parent?.recordID)
            #expect(copy.allKeys().isEmpty)
        }
    }

    @Test func theWholeRecordKeepsItsFields() throws {
        let note = try Self.savedRecords()[0]
        let copy = try #require(try Self.unarchive(Self.archive(note, whole: true)))
        #expect(copy["text"] as? String == "milk")
        #expect(copy.recordChangeTag == note.recordChangeTag)
    }

    /// The other way apps keep a record: the whole record as an archive's root object.
    @Test func aRecordArchivedAsTheRootObjectComesBack() throws {
        let note = try Self.savedRecords()[0]
        let data = try NSKeyedArchiver.archivedData(withRootObject: note,
            requiringSecureCoding: true)
        let copy = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecord.self,
            from: data))
        #expect(copy.recordID == note.recordID)
        #expect(copy.recordChangeTag == note.recordChangeTag)
        #expect(copy["text"] as? String == "milk")
    }

    @Test func anArchiveOfSomethingElseIsNoRecord() throws {
        let coder = NSKeyedArchiver(requiringSecureCoding: true)
        coder.encode("not a record" as NSString, forKey: "SystemFields")
        #expect(try Self.unarchive(coder.encodedData) == nil)
        let empty = NSKeyedArchiver(requiringSecureCoding: true)
        #expect(try Self.unarchive(empty.encodedData) == nil)
    }
}
