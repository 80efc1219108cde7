import Foundation
import Kernel

extension CKRecord {
    /// What `encodeSystemFields(with:)` keeps of a record, packed into one text: an app archives
    /// it on every save and fetch, and a single value is what its archive and JSON then carry.
    struct SystemFields {
        /// `record-2` added the creator and last modifier; `record-1` archives still read.
        private static let version = "record-2"
        private static let versionWithoutUsers = "record-1"

        let recordType: RecordType
        let recordID: ID
        var changeTag: String?
        var creationDate: Date?
        var modificationDate: Date?
        var parentName: String?
        var shareName: String?
        var creatorName: String?
        var lastModifierName: String?

        init(of record: CKRecord) {
            recordType = record.recordType
            recordID = record.recordID
            changeTag = record.recordChangeTag
            creationDate = record.creationDate
            modificationDate = record.modificationDate
            parentName = record.parent?.recordID.recordName
            shareName = record.share?.recordID.recordName
            creatorName = record.creatorUserRecordID?.recordName
            lastModifierName = record.lastModifiedUserRecordID?.recordName
        }

        var packed: String {
            var packed = PackedText()
            packed.append(Self.version)
            packed.append(recordType)
            packed.append(recordID.recordName)
            packed.append(recordID.zoneID.zoneName)
            packed.append(recordID.zoneID.ownerName)
            packed.append(changeTag)
            // A Double's description reads back to the same value.
            packed.append(creationDate.map(\.timeIntervalSince1970.description))
            packed.append(modificationDate.map(\.timeIntervalSince1970.description))
            packed.append(parentName)
            packed.append(shareName)
            packed.append(creatorName)
            packed.append(lastModifierName)
            return packed.text
        }

        init(packed: String) throws(PackedText.Malformed) {
            var reader = PackedText.Reader(packed)
            let version = try reader.text()
            guard version == Self.version || version == Self.versionWithoutUsers else {
                throw PackedText.Malformed(offset: 0)
            }
            recordType = try reader.text()
            let name = try reader.text()
            let zone = CKRecordZone.ID(zoneName: try reader.text(), ownerName: try reader.text())
            recordID = ID(recordName: name, zoneID: zone)
            changeTag = try reader.optional()
            creationDate = try Self.date(&reader)
            modificationDate = try Self.date(&reader)
            parentName = try reader.optional()
            shareName = try reader.optional()
            if version == Self.version {
                creatorName = try reader.optional()
                lastModifierName = try reader.optional()
            }
            guard reader.isAtEnd else { throw PackedText.Malformed(offset: 0) }
        }

        /// Sets what a record made from its type and ID lacks.
        func restore(in record: CKRecord) {
            record.recordChangeTag = changeTag
            record.creationDate = creationDate
            record.modificationDate = modificationDate
            record.parent = parentName.map {
                Reference(recordID: ID(recordName: $0, zoneID: recordID.zoneID), action: .none)
            }
            record.share = shareName.map {
                Reference(recordID: ID(recordName: $0, zoneID: recordID.zoneID), action: .none)
            }
            record.creatorUserRecordID = creatorName.map { ID(recordName: $0) }
            record.lastModifiedUserRecordID = lastModifierName.map { ID(recordName: $0) }
        }

        private static func date(_ reader: inout PackedText.Reader) throws(PackedText.Malformed)
            -> Date? {
            guard let text = try reader.optional() else { return nil }
            guard let seconds = Double(text) else { throw PackedText.Malformed(offset: 0) }
            return Date.init(timeIntervalSince1970: seconds)
        }
    }
}
