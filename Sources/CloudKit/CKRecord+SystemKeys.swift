import CloudSim

extension CKRecord {
    /// Apple's `CKRecord.SystemFieldKey`: the names a query's predicate uses for a record's
    /// system fields (the names of the properties they match).
    public enum SystemFieldKey {
        public static let recordID: CKRecord.FieldKey = "recordID"
        public static let creationDate: CKRecord.FieldKey = "creationDate"
        public static let modificationDate: CKRecord.FieldKey = "modificationDate"
        public static let creatorUserRecordID: CKRecord.FieldKey = "creatorUserRecordID"
        public static let lastModifiedUserRecordID: CKRecord.FieldKey = "lastModifiedUserRecordID"
        public static let parent: CKRecord.FieldKey = "parent"
        public static let share: CKRecord.FieldKey = "share"
    }

    /// The system field keys, which a query predicate of the simulated cloud does not read.
    static let systemFieldKeys: Set<String> = [
        SystemFieldKey.recordID, SystemFieldKey.creationDate, SystemFieldKey.modificationDate,
        SystemFieldKey.creatorUserRecordID, SystemFieldKey.lastModifiedUserRecordID,
        SystemFieldKey.parent, SystemFieldKey.share,
    ]

    /// Apple's `CKRecord.SystemType`: the record types CloudKit itself defines.
    public enum SystemType {
        /// A user record's type.
        public static let userRecord: CKRecord.RecordType = "Users"
        /// A share's type (`CKShare`).
        public static let share: CKRecord.RecordType = CloudRecord.shareRecordType
    }
}
