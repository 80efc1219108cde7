import CloudKit
import Foundation
import Testing

/// A record's fields through key-value coding, as older CloudKit code reads and writes them.
@Suite struct RecordKeyValueCodingTests {
    @Test func fieldsReadAndWriteThroughKeyValueCoding() {
        let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "n1"))
        record.setValue("Groceries", forKey: "title")
        record.setValuesForKeys(["rank": 3, "due": Date(timeIntervalSince1970: 5)])
        #expect(record.value(forKey: "title") as? String == "Groceries")
        #expect(record["rank"] as? Int == 3)
        #expect(record.changedKeys() == ["title", "due", "rank"])
        let values = record.dictionaryWithValues(forKeys: ["title", "missing"])
        #expect(values["title"] as? String == "Groceries")
        #expect(values["missing"] is NSNull)
        record.setValue(nil, forKey: "title")
        #expect(record.value(forKey: "title") == nil)
        #expect(record.allKeys().sorted() == ["due", "rank"])
    }
}
